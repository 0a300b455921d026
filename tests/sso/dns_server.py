"""A DNS server of the tests' own (docs/adr/0024): answers TXT queries over UDP on 127.0.0.1 from a dict,
built with dnspython's message module. Everything else: NXDOMAIN.

    with DnsServer() as dns_server:                       # any free port
        dns_server.txt["staff.mp.edu.au"] = ["blockplan-domain-verification=..."]
        settings.DOMAIN_VERIFICATION_NAMESERVER, settings.DOMAIN_VERIFICATION_PORT = "127.0.0.1", dns_server.port

As a script (the browser tests start it for the server they run): ``python tests/sso/dns_server.py
--port 0 --records FILE`` prints ``DNS server listening on 127.0.0.1:<port>`` and answers from the JSON
object ``{name: [text, ...]}`` in FILE, read again at every query (the test writes it).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
from pathlib import Path

import dns.exception
import dns.flags
import dns.message
import dns.rcode
import dns.rdataclass
import dns.rdatatype
import dns.rrset


class DnsServer:
    def __init__(self, port: int = 0, records_file: Path | None = None) -> None:
        self.txt: dict[str, list[str]] = {}
        self.records_file = records_file
        self.queries: list[str] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", port))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _records(self) -> dict[str, list[str]]:
        if self.records_file is None:
            return self.txt
        try:
            return json.loads(self.records_file.read_text(encoding="utf-8") or "{}")
        except (OSError, ValueError):
            return {}

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                data, peer = self.sock.recvfrom(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                query = dns.message.from_wire(data)
            except dns.exception.DNSException:  # noqa: S112 — a malformed datagram is dropped, as a server would
                continue
            answer = dns.message.make_response(query)
            answer.flags |= dns.flags.AA
            question = query.question[0] if query.question else None
            name = question.name.to_text(omit_final_dot=True).lower() if question is not None else ""
            self.queries.append(name)
            texts = self._records().get(name)
            if question is not None and texts is not None and question.rdtype == dns.rdatatype.TXT:
                quoted = ['"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"' for t in texts]
                answer.answer.append(dns.rrset.from_text(question.name, 60, dns.rdataclass.IN, dns.rdatatype.TXT, *quoted))
            elif texts is None:
                answer.set_rcode(dns.rcode.NXDOMAIN)
            self.sock.sendto(answer.to_wire(), peer)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=5)
        self.sock.close()

    def __enter__(self) -> DnsServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--records", type=Path, required=True)
    args = parser.parse_args()
    server = DnsServer(args.port, args.records)
    sys.stdout.write(f"DNS server listening on 127.0.0.1:{server.port}\n")
    sys.stdout.flush()
    try:
        server.thread.join()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
