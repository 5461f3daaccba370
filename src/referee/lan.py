"""The addresses a phone at the table can open: this machine's own, best first.

Pure standard library, and every way of asking may fail (Termux forbids some calls, Windows
and macOS lack others): each one that fails adds nothing, and the worst case is no address at
all (then only this device can open the page). The ways, cheapest first:

- the source address of a UDP socket "connected" to a documentation address, for IPv4 and
  IPv6: the routing table's answer for the default route, no packet sent;
- on Linux and Android, each interface by name (`socket.if_nameindex`) and its IPv4 address
  (`SIOCGIFADDR`), and the IPv6 addresses the kernel lists in `/proc/net/if_inet6`: the names
  tell a phone's own hotspot (`ap0`, `swlan0`) from its mobile data (`rmnet0`) and a VPN;
- the addresses this machine's name resolves to, given a second at most (a name the resolver
  does not know can otherwise take many).

A phone that is itself the hotspot routes the internet through mobile data, so the default
route's address is the one nobody at the table can reach: the hotspot's own address comes
first. Link-local IPv6 addresses are left out (browsers no longer open `[fe80::1%wlan0]`), as
are loopback and wildcard addresses.
"""

from __future__ import annotations

import contextlib
import enum
import ipaddress
import re
import socket
import struct
import threading
from dataclasses import dataclass
from pathlib import Path

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

IF_INET6 = Path("/proc/net/if_inet6")  # Linux's list of IPv6 addresses, with interface names
SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address
HOSTNAME_WAIT = 1.0  # seconds the resolver gets for this machine's own name
MAX_INTERFACES = 64  # a machine with more (containers) is asked about the first ones only

# Android names the interface of its own hotspot so (and some give a second Wi-Fi `wlan1`,
# whose address then ends in .1, the router's place).
HOTSPOT_NAME = re.compile(r"(ap|swlan|softap|wifi-ap|ap_br_wlan)\d*")
SECOND_WLAN = re.compile(r"wlan[1-9]\d*")
HOTSPOT_ADDRESS = ipaddress.IPv4Address("192.168.43.1")  # Android's classic hotspot address
# Interfaces a phone at the table cannot reach: mobile data, VPNs, tunnels, containers.
REMOTE_NAME = re.compile(
    r"(rmnet|ccmni|pdp_ip|v4-|clat|dummy|tun|tap|utun|wg|ppp|ipsec|tailscale|zt|docker|br-|veth"
    r"|virbr|lxc|vmnet|vboxnet).*"
)
SHARED_SPACE = ipaddress.IPv4Network("100.64.0.0/10")  # carrier NAT, and Tailscale's space


class Kind(enum.IntEnum):
    """How likely the table reaches an address; the lower, the better."""

    HOTSPOT = 0  # this device is the hotspot the others joined
    LAN = 1  # a private IPv4 address on Wi-Fi or Ethernet, or the default route's
    PRIVATE = 2  # a private IPv4 address on an interface of unknown kind
    IPV6 = 3  # a unique-local or global IPv6 address on Wi-Fi or Ethernet
    REMOTE = 4  # mobile data, a VPN or a tunnel: the table is not on it
    PUBLIC = 5  # a public IPv4 address: served there only when --host names it


@dataclass(frozen=True, slots=True)
class Address:
    """One address of this machine and what is known of it."""

    ip: IPAddress
    kind: Kind
    interface: str = ""  # empty when the way it was found does not say

    @property
    def host(self) -> str:
        """The address as a URL's host: IPv6 in brackets."""
        return url_host(str(self.ip))

    @property
    def is_default_choice(self) -> bool:
        """Whether `serve` may listen here without `--host` naming it: private addresses
        only (RFC 1918 and unique-local IPv6), never a public one."""
        return self.kind <= Kind.IPV6 and self.ip.is_private


def url_host(host: str) -> str:
    """`host` as it stands in a URL: IPv6 in brackets, a zone's `%` escaped.

    >>> url_host("192.168.1.5"), url_host("fd00::5"), url_host("fe80::1%wlan0")
    ('192.168.1.5', '[fd00::5]', '[fe80::1%25wlan0]')
    """
    return f"[{host.replace('%', '%25')}]" if ":" in host else host


def parse(text: str) -> IPAddress | None:
    """An IP address (a zone cut off), or None for anything else."""
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None


def is_wildcard(host: str) -> bool:
    """Whether listening on `host` means every address (`0.0.0.0`, `::`, empty)."""
    found = parse(host)
    return host == "" or (found is not None and found.is_unspecified)


def is_loopback(host: str) -> bool:
    """Whether `host` is this device only (`127.0.0.1`, `::1`, `localhost`)."""
    found = parse(host)
    return host.lower() == "localhost" or (found is not None and found.is_loopback)


def kind_of(ip: IPAddress, interface: str = "") -> Kind | None:
    """How reachable `ip` on `interface` is, or None for one never shown (loopback,
    link-local, wildcard, multicast)."""
    if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
        return None
    if isinstance(ip, ipaddress.IPv4Address) and ip in SHARED_SPACE:
        return Kind.REMOTE
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None or ip.is_site_local:
            return None
        return Kind.REMOTE if REMOTE_NAME.fullmatch(interface) else Kind.IPV6
    if is_hotspot(ip, interface):
        return Kind.HOTSPOT
    if REMOTE_NAME.fullmatch(interface):
        return Kind.REMOTE
    if not ip.is_private:
        return Kind.PUBLIC
    return Kind.LAN if interface else Kind.PRIVATE


def is_hotspot(ip: ipaddress.IPv4Address, interface: str) -> bool:
    """Whether `ip` is this device's own hotspot (Android names its interface so)."""
    if ip == HOTSPOT_ADDRESS or HOTSPOT_NAME.fullmatch(interface):
        return True
    return bool(SECOND_WLAN.fullmatch(interface)) and ip.packed[-1] == 1


# ---------------------------------------------------------------------------- asking


def routed(family: socket.AddressFamily) -> str | None:
    """The source address of the default route for `family` (no packet is sent)."""
    target = ("192.0.2.1", 9) if family == socket.AF_INET else ("2001:db8::1", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(target)  # documentation addresses: routed like the internet
            return str(probe.getsockname()[0])
    except (OSError, ValueError, IndexError, TypeError):
        return None


def by_interface() -> list[tuple[str, str]]:
    """(interface, address) pairs where the system lists them (Linux, Android)."""
    found: list[tuple[str, str]] = []
    try:
        names = [str(name) for _, name in socket.if_nameindex()][:MAX_INTERFACES]
    except (OSError, AttributeError, ValueError, TypeError):
        names = []
    if names:
        try:
            import fcntl

            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                for name in names:
                    with contextlib.suppress(OSError, ValueError, struct.error, TypeError):
                        packed = struct.pack("256s", name.encode()[:15])
                        answer = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, packed)
                        found.append((name, socket.inet_ntoa(answer[20:24])))
        except (ImportError, OSError, AttributeError):
            pass  # no fcntl (Windows), or no socket allowed: the other ways tell
    with (
        contextlib.suppress(OSError, ValueError),
        IF_INET6.open(encoding="ascii", errors="replace") as listed,
    ):
        for line in listed.read(1 << 16).splitlines()[:256]:
            fields = line.split()
            if len(fields) == 6 and re.fullmatch(r"[0-9a-f]{32}", fields[0]):
                text = ":".join(fields[0][i : i + 4] for i in range(0, 32, 4))
                flags = int(fields[4], 16) if re.fullmatch(r"[0-9a-f]{1,8}", fields[4]) else 0
                if not flags & 0x60:  # neither deprecated nor tentative
                    found.append((fields[5][:32], text))
    return found


def by_hostname(wait: float = HOSTNAME_WAIT) -> list[str]:
    """The addresses this machine's name resolves to, if the resolver answers in time."""
    answers: list[str] = []

    def ask() -> None:
        with contextlib.suppress(OSError, UnicodeError, ValueError):
            name = socket.gethostname()
            for *_, sockaddr in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP):
                answers.append(str(sockaddr[0]))

    # On a thread of its own: a name the resolver does not know can take many seconds.
    asker = threading.Thread(target=ask, daemon=True)
    try:
        asker.start()
    except RuntimeError:
        return []
    asker.join(wait)
    return [] if asker.is_alive() else list(answers)


def addresses() -> list[Address]:
    """Every address of this machine the table might reach, best first."""
    named: dict[IPAddress, str] = {}
    for interface, text in by_interface():
        ip = parse(text)
        if ip is not None:
            named.setdefault(ip, interface)
    seen: dict[IPAddress, Address] = {}

    def add(text: str | None, route: bool = False) -> None:
        ip = parse(text) if text else None
        if ip is None or ip in seen:
            return
        interface = named.get(ip, "")
        kind = kind_of(ip, interface)
        if kind is None:
            return
        if route and kind == Kind.PRIVATE:
            kind = Kind.LAN  # the default route's, on an interface of unknown name
        seen[ip] = Address(ip, kind, interface)

    add(routed(socket.AF_INET), route=True)
    for ip in named:
        add(str(ip))
    add(routed(socket.AF_INET6), route=True)
    for text in by_hostname():
        add(text)
    order = {ip: n for n, ip in enumerate(seen)}  # the default route first within a kind
    return sorted(seen.values(), key=lambda a: (a.kind, order[a.ip]))


def lan_address(found: list[Address] | None = None) -> str:
    """Where `serve` listens by default: the best private address, else the loopback one.

    A public address (a machine on the internet itself) is never chosen: `--host` must say so.
    """
    for address in addresses() if found is None else found:
        if address.is_default_choice:
            return str(address.ip)
    return "127.0.0.1"


def reachable(bound: str, found: list[Address] | None = None) -> list[Address]:
    """The addresses a server listening on `bound` answers on, best first: every one of the
    family (or both) for a wildcard, else none but the one named."""
    listed = addresses() if found is None else found
    if bound == "":
        return list(listed)
    ip = parse(bound)
    if ip is not None and ip.is_unspecified:
        import socket

        if ip.version == 6 and socket.has_dualstack_ipv6():  # `::` takes IPv4 phones too
            return list(listed)
        return [a for a in listed if a.ip.version == ip.version]
    return []
