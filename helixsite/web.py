"""The web server: uvicorn serving ``helixsite.asgi`` with one or more worker processes.

``python -m helixsite.web --host 127.0.0.1 --port 8000 --workers 2 [--forwarded-allow-ips 127.0.0.1]``

The client's address (``REMOTE_ADDR``, which the login budget counts by) is the connecting
peer. uvicorn would otherwise believe X-Forwarded-For (and X-Forwarded-Proto) from any local
peer, so anyone on the machine could claim any address; it believes them only from the
proxies ``--forwarded-allow-ips`` names (``HELIX_FORWARDED_ALLOW_IPS``).

For several workers uvicorn binds the listening socket itself, without naming TCP as its
protocol; asyncio then leaves Nagle's algorithm on for every connection, and a response
written as headers and then body waits for the client's delayed acknowledgement: 45 ms more
per call, measured with two workers against 7 ms with one. Here the socket is bound as TCP
with TCP_NODELAY, so every worker's connections send at once.
"""

from __future__ import annotations

import argparse
import socket
import sys

import uvicorn
from uvicorn.supervisors import Multiprocess

APP = "helixsite.asgi:application"


class TcpConfig(uvicorn.Config):
    def bind_socket(self) -> socket.socket:
        bound = super().bind_socket()
        if bound.family not in (socket.AF_INET, socket.AF_INET6):
            return bound
        # The same socket, now knowing it is TCP (the kernel says so), so asyncio sets
        # TCP_NODELAY on what it accepts; the listener's own TCP_NODELAY is inherited too.
        tcp = socket.socket(bound.family, bound.type, socket.IPPROTO_TCP, fileno=bound.detach())
        tcp.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return tcp


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m helixsite.web", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--forwarded-allow-ips", default="", help="comma-separated proxies to believe; none if empty")
    args = parser.parse_args(argv)
    proxies = [address.strip() for address in args.forwarded_allow_ips.split(",") if address.strip()]
    config = TcpConfig(
        APP,
        host=args.host,
        port=args.port,
        workers=args.workers,
        access_log=False,
        log_level=args.log_level,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
    )
    server = uvicorn.Server(config)
    try:
        if config.workers > 1:
            Multiprocess(config, sockets=[config.bind_socket()]).run()
        else:
            server.run()
    except KeyboardInterrupt:
        pass
    if config.workers == 1 and not server.started:
        sys.exit(3)


if __name__ == "__main__":
    main()
