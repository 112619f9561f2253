"""A real SMTP server for the tests (aiosmtpd): it prints its port, then
writes each message it accepts to the folder given, one file per message,
its envelope first ("MAIL FROM ...", "RCPT TO ..." lines, a blank line),
then the message as received.

    smtp_server.py FOLDER [--port PORT] [--starttls CERT KEY] [--smtps CERT KEY]
                          [--auth USER:PASSWORD] [--refuse ADDRESS] [--defer ADDRESS]
                          [--gather N]

With --gather N, a message's data is answered only once N messages are
waiting for their answer at the same time (or, after a minute, refused with
a 451): a client that sends one message at a time never gets N together.
"""
import argparse
import warnings
import asyncio
import os
import socket
import ssl
import sys
import uuid

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult


class Handler:
    def __init__(self, folder, refuse, defer, gather):
        self.folder, self.refuse, self.defer, self.gather = folder, refuse, defer, gather
        self.waiting = 0
        self.gathered = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such mailbox"
        if address in self.defer:
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.gather > 1:
            if self.gathered is None:
                self.gathered = asyncio.Event()
            self.waiting += 1
            # Tells the test that a message's data is being held.
            open(os.path.join(self.folder, "holding"), "w").close()
            if self.waiting >= self.gather:
                self.gathered.set()
            try:
                await asyncio.wait_for(self.gathered.wait(), 60)
            except asyncio.TimeoutError:
                return "451 4.3.0 only %d messages came at once" % self.waiting
        name = os.path.join(self.folder, uuid.uuid4().hex)
        with open(name + ".partial", "wb") as out:
            out.write(f"MAIL FROM {envelope.mail_from}\n".encode())
            for rcpt in envelope.rcpt_tos:
                out.write(f"RCPT TO {rcpt}\n".encode())
            tls = server.transport.get_extra_info("ssl_object") is not None
            out.write(f"TLS {'yes' if tls else 'no'}\n".encode())
            login = session.auth_data.login.decode() if session.authenticated and session.auth_data else "-"
            out.write(f"AUTH {login}\n".encode())
            out.write(b"\n")
            out.write(envelope.original_content)
        os.rename(name + ".partial", name + ".msg")
        return "250 Message accepted for delivery"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    warnings.filterwarnings("ignore")  # aiosmtpd warns of its own deprecated names
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--starttls", nargs=2)
    parser.add_argument("--smtps", nargs=2)
    parser.add_argument("--auth")
    parser.add_argument("--refuse", action="append", default=[])
    parser.add_argument("--defer", action="append", default=[])
    parser.add_argument("--port", type=int)
    parser.add_argument("--gather", type=int, default=0)
    args = parser.parse_args()
    handler = Handler(args.folder, args.refuse, args.defer, args.gather)
    kwargs = {}
    context = None
    pair = args.starttls or args.smtps
    if pair:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(pair[0], pair[1])
    if args.starttls:
        kwargs.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = auth_data.login.decode() == user and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False, auth_data=auth_data)

        # With TLS from the first byte aiosmtpd does not count the connection
        # as TLS for AUTH; it is, so only STARTTLS's plain start needs the rule.
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(args.starttls))
    port = args.port or free_port()
    controller = Controller(
        handler, hostname="127.0.0.1", port=port, ssl_context=context if args.smtps else None, **kwargs
    )
    controller.start()
    print(port, flush=True)
    try:
        sys.stdin.read()  # until the test closes our stdin or kills us
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
