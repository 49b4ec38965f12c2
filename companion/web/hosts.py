"""The names this companion answers to: a page from another site that had its own name
pointed at this laptop (DNS rebinding) reads nothing and changes nothing.

A rebinding page can only reach us under a name its site controls, never under an address
typed as digits, so an IP address is always answered; a name only when it is ``localhost``,
``COMPANION_HOST``, or this laptop's own name (plain, or ``.local`` as mDNS announces it).
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from urllib.parse import urlsplit

from flask import current_app, request


@functools.cache
def own_names() -> frozenset[str]:
    # Not socket.getfqdn(): it asks the network's DNS, which a games night may not have.
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local"})


def host_name() -> str:
    """The name the request was sent to, without its port."""
    try:
        return (urlsplit("//" + request.host).hostname or "").lower()
    except ValueError:  # a port that is not a number, a bracket left open
        return ""


def host_allowed() -> bool:
    name = host_name()
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        pass
    else:
        return True
    configured = (current_app.config.get("PUBLIC_HOST") or "").lower()
    return name == configured or name in own_names()
