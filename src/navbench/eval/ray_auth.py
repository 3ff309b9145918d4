"""Ray token authentication, checked before connecting (``--executor ray --ray-address``).

Ray ≥ 2.52 turns token authentication on for the clusters ``ray start --head`` and
``ray.init()`` start (``RAY_AUTH_MODE`` unset: on, with a token generated in
``~/.ray/auth_token``). Every node that joins and every driver (``navbench evaluate``) must then
send the head's token, which Ray reads from ``RAY_AUTH_TOKEN``, else the file
``RAY_AUTH_TOKEN_PATH``, else ``~/.ray/auth_token`` — but a process joining an existing cluster
sends it only with ``RAY_AUTH_MODE=token`` (measured with Ray 2.60: with the mode unset, even
on the head's own machine, ``ray.init(address=...)`` fails after 20 s with "Failed to connect").
:func:`check_auth` asks the cluster's GCS directly (one ``GetClusterId`` call, without and with
this process's token): when the mode is unset and the local token is the head's, it turns
token mode on for this process (the one thing navbench forwards); otherwise it names the cause.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: Where the README explains the token recipe.
RECIPE = ("copy the head's token ('ray get-auth-token' on the head) into RAY_AUTH_TOKEN (or a "
          "file named by RAY_AUTH_TOKEN_PATH, or ~/.ray/auth_token) and set RAY_AUTH_MODE=token, "
          "here and on every worker node before 'ray start'; see README 'Ray clusters'")


def local_token() -> tuple[str | None, str]:
    """``(token, where it came from)`` as Ray reads it in this process: ``RAY_AUTH_TOKEN``,
    else the file ``RAY_AUTH_TOKEN_PATH``, else ``~/.ray/auth_token``; ``(None, "")`` if none."""
    env = os.environ.get("RAY_AUTH_TOKEN", "").strip()
    if env:
        return env, "RAY_AUTH_TOKEN"
    for name, path in (("RAY_AUTH_TOKEN_PATH", os.environ.get("RAY_AUTH_TOKEN_PATH")),
                       ("~/.ray/auth_token", str(Path.home() / ".ray" / "auth_token"))):
        if path:
            try:
                text = Path(path).read_text().strip()
            except OSError:
                continue
            if text:
                return text, name if name == "~/.ray/auth_token" else f"{name}={path}"
    return None, ""


def enable_token_mode() -> bool:
    """Turn token mode on for this process as ``RAY_AUTH_MODE=token`` would; ``False`` when
    this Ray cannot (no token authentication, or its set-up function moved)."""
    try:
        from ray._private.authentication.authentication_token_setup import _enable_token_auth
    except ImportError:
        return False
    _enable_token_auth()  # sets RAY_AUTH_MODE=token and refreshes Ray's cached config
    return True


def probe_gcs(host: str, port: int, token: str | None, timeout_s: float = 5.0) -> str:
    """Ask the GCS at ``host:port`` for its cluster id, sending ``token`` when given:
    ``"accepted"``, ``"refused"`` (UNAUTHENTICATED) or ``"unknown"`` (no answer, not a GCS, or
    gRPC unavailable)."""
    import importlib

    try:  # Any: grpc and Ray's generated protobuf modules ship no type information
        grpc: Any = importlib.import_module("grpc")
        pb: Any = importlib.import_module("ray.core.generated.gcs_service_pb2")
        pb_grpc: Any = importlib.import_module("ray.core.generated.gcs_service_pb2_grpc")
    except ImportError:
        return "unknown"
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    try:
        with grpc.insecure_channel(f"{host}:{port}") as channel:
            stub = pb_grpc.NodeInfoGcsServiceStub(channel)
            stub.GetClusterId(pb.GetClusterIdRequest(), timeout=timeout_s,
                              metadata=metadata)
    except grpc.RpcError as e:
        return "refused" if e.code() == grpc.StatusCode.UNAUTHENTICATED else "unknown"
    return "accepted"


def check_auth(host: str, port: int, timeout_s: float = 5.0) -> str | None:
    """Make this process send the head's token if it has it, else say why it cannot join the
    cluster whose GCS is ``host:port``: one sentence, or ``None`` when the cluster accepts this
    process (no authentication, the token is right, or the cluster cannot be asked)."""
    mode = os.environ.get("RAY_AUTH_MODE", "").strip().lower()
    token, where = local_token()
    sent = token if mode == "token" else None
    if probe_gcs(host, port, sent, timeout_s) != "refused":
        return None
    if sent is not None:
        return f"the cluster refused this process's token (from {where}): it is not the head's; {RECIPE}"
    if mode == "disabled":
        return f"the cluster uses token authentication and RAY_AUTH_MODE=disabled here: {RECIPE}"
    if token is None:
        return f"the cluster uses token authentication and this process has no token: {RECIPE}"
    if probe_gcs(host, port, token, timeout_s) != "accepted":
        return (f"the cluster refused this process's token (from {where}): it is not the "
                f"head's; {RECIPE}")
    if enable_token_mode():
        log.info("Ray cluster %s:%d uses token authentication: sending the token from %s "
                 "(RAY_AUTH_MODE=token)", host, port, where)
        return None
    return (f"the cluster uses token authentication; this process has the head's token (from "
            f"{where}) but RAY_AUTH_MODE is not 'token': set RAY_AUTH_MODE=token")
