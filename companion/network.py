"""The address phones reach this laptop at, and QR codes of it, without the internet."""

from __future__ import annotations

import io
import ipaddress
import socket
from typing import Literal, NamedTuple

import ifaddr
import qrcode
import qrcode.image.svg


def lan_address() -> str:
    """This machine's address on the local network, or 127.0.0.1 when it has none.

    Prefers a private IPv4 address of a network interface; else asks the routing table
    which address a UDP socket would send from (no packet leaves the machine).
    """
    candidates = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue
            address = ipaddress.ip_address(ip.ip)
            if address.is_private and not address.is_loopback and not address.is_link_local:
                candidates.append(address)
    if candidates:
        return str(sorted(candidates, key=_preference)[0])
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
            if not ipaddress.ip_address(address).is_loopback:
                return address
    except OSError:
        pass
    return "127.0.0.1"


#: Hosts a server listens on to be reached on every interface.
_EVERY_INTERFACE = frozenset({"", "0.0.0.0", "::", "[::]"})


class JoinHost(NamedTuple):
    """The host put in join addresses, and why phones cannot reach it (None: they can)."""

    host: str
    unreachable: Literal["loopback", "no-network"] | None = None


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def join_host(bound_host: str, explicit: str | None) -> JoinHost:
    """The host the printed address, the table screen and its QR code all name: ``explicit``
    (``COMPANION_HOST``, trusted: a proxy may stand in front of a server on loopback), else
    the address listened on, else (every interface) this laptop's address on the network.
    A server on loopback, or one with no network address, is told as unreachable."""
    if explicit:
        return JoinHost(explicit)
    if is_loopback(bound_host):
        return JoinHost(bound_host, "loopback")
    if bound_host not in _EVERY_INTERFACE:
        return JoinHost(bound_host)
    found = lan_address()
    return JoinHost(found, "no-network" if is_loopback(found) else None)


def _preference(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> tuple[int, int]:
    """Home and café networks are usually 192.168.x, then 10.x, then 172.16-31.x."""
    text = str(address)
    rank = 0 if text.startswith("192.168.") else 1 if text.startswith("10.") else 2
    return rank, int(address)


def qr_svg(data: str) -> str:
    """An inline SVG QR code (no script, no external file: fine under a strict CSP)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10,
                        border=2)
    svg = image.to_string(encoding="unicode")
    return svg[svg.index("<svg"):]


def qr_text(data: str) -> str:
    """A QR code drawn with block characters, for the terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
