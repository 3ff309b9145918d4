"""Optional LLM refinement of route instructions (NavVerse App. 8.3, "VLM refinement").

Only when a user configures an OpenAI-compatible endpoint (:class:`RefineSettings`), the
template text is sent to ``POST {base_url}/chat/completions`` with NavVerse's prompt (text
only: navbench renders no keyframes here; the named landmarks are listed instead). The answer
is accepted only if it is non-empty, at most ``max_words`` words long and contains no number
with a distance or count unit (``3 m``, ``ten metres`` is allowed, ``12 steps`` is not); on
any failure (network, HTTP status, bad JSON, failed check) the template text is kept and the
reason is returned. Uses ``urllib.request`` only; nothing is contacted without settings.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass

from navbench.errors import ConfigError
from navbench.io import loads_json

PROMPT = (
    "Describe the trajectory of the robot. Improve the given instruction to:\n"
    "1) include unique landmarks for guidance; only mention the landmarks listed below.\n"
    "2) make the expression more diverse.\n"
    "3) replace any exact distance value with a more general description.\n"
    "4) if the robot is following the road, mention it in the output.\n"
    "5) make the instruction compact, only include the key landmarks.\n"
    "6) return the output only, no other text.\n"
    "7) make it within 100 words.\n\n"
    "Landmarks: {landmarks}\n"
    "Improve this instruction: {instruction}"
)

#: A digit group followed by a distance / count unit, e.g. "3 m", "2.5 meters", "10ft", "12 steps".
DISTANCE_RE = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:m|meters?|metres?|km|kilometers?|kilometres?|cm|ft|feet|foot|yards?|yd|"
    r"miles?|mi|steps?|paces?|blocks?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class RefineSettings:
    """An OpenAI-compatible chat endpoint.

    Attributes:
        base_url: e.g. ``http://127.0.0.1:8000/v1`` (``/chat/completions`` is appended).
        model: model name sent in the request.
        api_key_env: environment variable holding the API key (sent as a Bearer token), or
            ``None`` for endpoints without authentication.
        timeout: seconds per request.
        max_words: longest accepted answer.
        temperature: sampling temperature sent to the endpoint.
    """

    base_url: str
    model: str
    api_key_env: str | None = None
    timeout: float = 30.0
    max_words: int = 100
    temperature: float = 0.0

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(f"refine base_url: expected an http(s) URL, got {self.base_url!r}")
        if not self.model:
            raise ConfigError("refine model: expected a model name, got an empty string")


def check_refined(text: str, max_words: int = 100) -> str | None:
    """``None`` if ``text`` is acceptable, else the reason (``empty``, ``too_long``, ``distance``)."""
    if not text.strip():
        return "empty"
    if len(text.split()) > max_words:
        return "too_long"
    if DISTANCE_RE.search(text):
        return "distance"
    return None


def refine_instruction(template: str, landmarks: Sequence[str], settings: RefineSettings
                       ) -> tuple[str, str]:
    """``(text, status)``: the refined text and ``"refined"``, or the template and
    ``"fallback:<reason>"``."""
    key = None
    if settings.api_key_env:
        key = os.environ.get(settings.api_key_env)
        if not key:
            raise ConfigError(f"refine api_key_env: environment variable {settings.api_key_env!r} is not set")
    body = {
        "model": settings.model,
        "temperature": settings.temperature,
        "messages": [{"role": "user", "content": PROMPT.format(
            landmarks=", ".join(landmarks) or "none", instruction=template)}],
    }
    req = urllib.request.Request(
        settings.base_url.rstrip("/") + "/chat/completions", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})},
        method="POST")
    try:
        with urllib.request.urlopen(req, timeout=settings.timeout) as resp:
            doc = loads_json(resp.read().decode("utf-8"))
        text = str(doc["choices"][0]["message"]["content"]).strip()
    except urllib.error.HTTPError as e:
        return template, f"fallback:http_{e.code}"
    except (urllib.error.URLError, TimeoutError, OSError):
        return template, "fallback:unreachable"
    except (ValueError, KeyError, IndexError, TypeError):
        return template, "fallback:bad_response"
    reason = check_refined(text, settings.max_words)
    if reason is not None:
        return template, f"fallback:{reason}"
    return " ".join(text.split()), "refined"
