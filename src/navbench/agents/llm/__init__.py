"""Zero-shot foundation-model agents through any OpenAI-compatible chat-completions endpoint.

- ``vlm`` (:mod:`navbench.agents.llm.vlm`): images + instruction → one action per decision;
- ``llm-planner`` (:mod:`navbench.agents.llm.planner`): instruction → program, executed by the
  scene-graph agent's perception;
- :mod:`navbench.agents.llm.client`: HTTP client, retries, limits, concurrency limit;
  :mod:`navbench.agents.llm.cache`: its replay cache;
- :mod:`navbench.agents.llm.prompts` (prompts as data), :mod:`navbench.agents.llm.parse`
  (reply parsing), :mod:`navbench.agents.llm.images` (PNG data URLs).

Imported only when one of these agents is chosen.
"""
