"""Stand-ins for the push platforms, each checking what Huddle sends with an
independent implementation of its protocol, over HTTP/2 and HTTP/1.1 with
TLS (hypercorn), on one port:

- Web Push (RFC 8030): POST /webpush/subscribe makes a subscription (a P-256
  key pair and an auth secret kept here); POST /webpush/push/ID checks the
  VAPID JWT (py_vapid) and its claims, and decrypts the body (http_ece,
  the reference implementation of RFC 8188/8291).
- APNs: POST /3/device/TOKEN checks the ES256 provider token (PyJWT, with
  the public half of the key written here), HTTP/2, and the apns-* headers.
- FCM: POST /token checks the service account's RS256 assertion and the
  JWT-bearer grant (PyJWT) and answers an access token; POST
  /v1/projects/P/messages:send checks it and the v1 message's shape.
- Webhooks: POST /webhook verifies the Standard Webhooks signature
  (standardwebhooks).

A device whose id or token starts with "gone" answers as the platform does
for one that is no longer there; a "slow" Web Push subscription's first push
is answered half a minute after it arrived. GET /received lists what arrived, checked.

    push_services.py FOLDER --webhook-secret SECRET [--count-only]

With --count-only (the push benchmark's), Web Push messages are counted,
not checked, so that the stand-in's Python is not what is measured; GET
/count answers how many came and when the last did.

prints one JSON line: the port and the files Huddle needs (the CA
certificate, the APNs key, the FCM service account).
"""
import argparse
import asyncio
import base64
import datetime
import json
import os
import socket
import sys
import time
import uuid

import http_ece
import jwt
import py_vapid
import standardwebhooks
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID
from hypercorn.asyncio import serve
from hypercorn.config import Config
import ipaddress


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def write(path, data):
    with open(path, "wb") as out:
        out.write(data)
    return path


def make_files(folder):
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = serialization.PrivateFormat.PKCS8
    files = {
        "cert": write(os.path.join(folder, "cert.pem"), cert.public_bytes(serialization.Encoding.PEM)),
        "tlsKey": write(os.path.join(folder, "tls-key.pem"), key.private_bytes(
            serialization.Encoding.PEM, pem, serialization.NoEncryption())),
    }
    apns_key = ec.generate_private_key(ec.SECP256R1())
    files["apnsKey"] = write(os.path.join(folder, "AuthKey_TESTKEY123.p8"), apns_key.private_bytes(
        serialization.Encoding.PEM, pem, serialization.NoEncryption()))
    fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return files, apns_key.public_key(), fcm_key


class Services:
    def __init__(self, folder, webhook_secret, port, count_only=False):
        self.count_only = count_only
        self.count = 0
        self.last = 0.0
        self.files, self.apns_public, self.fcm_key = make_files(folder)
        self.origin = f"https://127.0.0.1:{port}"
        account = {
            "type": "service_account", "project_id": "huddle-test",
            "private_key_id": "k1", "client_email": "huddle@huddle-test.iam.gserviceaccount.com",
            "private_key": self.fcm_key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(),
            "token_uri": f"{self.origin}/token",
        }
        self.files["fcmAccount"] = write(os.path.join(folder, "service-account.json"), json.dumps(account).encode())
        self.account = account
        self.webhook = standardwebhooks.Webhook(webhook_secret) if webhook_secret else None
        self.subscriptions = {}
        self.held = set()
        self.access_tokens = set()
        self.received = []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        path, version = scope["path"], scope["http_version"]
        try:
            status, answer = self.route(scope["method"], path, headers, body, version)
            # A slow subscription's first push is recorded as it arrives and
            # answered half a minute later: time to kill the server sending
            # it, however busy the machine. Later ones are answered at once.
            if path.startswith("/webpush/push/slow-") and path not in self.held:
                self.held.add(path)
                await asyncio.sleep(30)
        except Exception as error:  # recorded, so the test shows it
            self.received.append({"service": "error", "path": path, "error": repr(error)})
            status, answer = 400, {"error": repr(error)}
        data = json.dumps(answer).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})

    def route(self, method, path, headers, body, version):
        if path == "/received":
            return 200, self.received
        if path == "/count":
            return 200, {"count": self.count, "last": self.last}
        if self.count_only and path.startswith("/webpush/push/"):
            self.count += 1
            self.last = time.time()
            return 201, {}
        if path == "/webpush/subscribe":
            return 200, self.subscribe(json.loads(body or b"{}"))
        if path.startswith("/webpush/push/"):
            return self.web_push(path.rsplit("/", 1)[1], headers, body)
        if path.startswith("/3/device/"):
            return self.apns(path.rsplit("/", 1)[1], headers, body, version)
        if path == "/token":
            return self.fcm_token(headers, body)
        if path.startswith("/v1/projects/"):
            return self.fcm_send(path, headers, body)
        if path == "/webhook":
            return self.webhook_post(headers, body)
        return 404, {"error": "no such path"}

    def subscribe(self, options):
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        ident = ("gone-" if options.get("gone") else "slow-" if options.get("slow") else "") + uuid.uuid4().hex
        self.subscriptions[ident] = (key, auth)
        public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{self.origin}/webpush/push/{ident}", "p256dh": b64url(public), "auth": b64url(auth)}

    def web_push(self, ident, headers, body):
        record = {"service": "webpush", "subscription": ident, "ttl": headers.get("ttl"),
                  "urgency": headers.get("urgency"), "topic": headers.get("topic"),
                  "encoding": headers.get("content-encoding")}
        if ident.startswith("gone") or ident not in self.subscriptions:
            record["answered"] = 410
            self.received.append(record)
            return 410, {"error": "gone"}
        # RFC 8292 §3: vapid t=JWT, k=public key.
        scheme, _, params = headers.get("authorization", "").partition(" ")
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert scheme.lower() == "vapid", "not the vapid scheme"
        signed, signature = parts["t"].rsplit(".", 1)
        verified = py_vapid.Vapid02.from_raw_public(parts["k"].encode()).verify_token(signed.encode(), signature)
        claims = json.loads(unb64url(signed.split(".")[1]))
        header = json.loads(unb64url(signed.split(".")[0]))
        record["vapid"] = verified and header.get("alg") == "ES256" and claims["aud"] == self.origin \
            and time.time() < claims["exp"] <= time.time() + 86400 and claims["sub"].startswith(("mailto:", "https:"))
        record["vapidKey"] = parts["k"]
        key, auth = self.subscriptions[ident]
        plaintext = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
        record["payload"] = json.loads(plaintext)
        self.received.append(record)
        return 201, {}

    def apns(self, token, headers, body, version):
        record = {"service": "apns", "token": token, "http": version, "topic": headers.get("apns-topic"),
                  "pushType": headers.get("apns-push-type"), "priority": headers.get("apns-priority"),
                  "collapseId": headers.get("apns-collapse-id"), "expiration": headers.get("apns-expiration")}
        bearer = headers.get("authorization", "")
        assert bearer.startswith("bearer "), "no provider token"
        token_header = jwt.get_unverified_header(bearer[7:])
        claims = jwt.decode(bearer[7:], self.apns_public, algorithms=["ES256"], options={"verify_aud": False})
        record["providerToken"] = token_header.get("kid") == "TESTKEY123" and claims["iss"] == "TEAM123456" \
            and abs(claims["iat"] - time.time()) < 3600
        record["payload"] = json.loads(body)
        self.received.append(record)
        if token.startswith("dead"):
            return 410, {"reason": "Unregistered", "timestamp": int(time.time() * 1000)}
        return 200, {}

    def fcm_token(self, headers, body):
        form = dict(pair.split("=", 1) for pair in body.decode().split("&"))
        assert form["grant_type"] == "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer", form["grant_type"]
        claims = jwt.decode(form["assertion"], self.fcm_key.public_key(), algorithms=["RS256"], audience=self.account["token_uri"])
        assert claims["iss"] == self.account["client_email"] and "firebase.messaging" in claims["scope"]
        token = "ya29." + uuid.uuid4().hex
        self.access_tokens.add(token)
        self.received.append({"service": "oauth", "scope": claims["scope"]})
        return 200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"}

    def fcm_send(self, path, headers, body):
        bearer = headers.get("authorization", "")
        if not bearer.startswith("Bearer ") or bearer[7:] not in self.access_tokens:
            return 401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}}
        assert path == "/v1/projects/huddle-test/messages:send", path
        message = json.loads(body)["message"]
        assert isinstance(message["token"], str) and set(message["notification"]) <= {"title", "body", "image"}
        assert all(isinstance(v, str) for v in message.get("data", {}).values()), "FCM data values are strings"
        self.received.append({"service": "fcm", "message": message})
        if message["token"].startswith("gone"):
            return 404, {"error": {"code": 404, "status": "NOT_FOUND",
                                   "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                                                "errorCode": "UNREGISTERED"}]}}
        return 200, {"name": f"projects/huddle-test/messages/{uuid.uuid4().hex}"}

    def webhook_post(self, headers, body):
        payload = self.webhook.verify(body, headers)
        self.received.append(
            {"service": "webhook", "id": headers["webhook-id"], "payload": payload, "traceparent": headers.get("traceparent")})
        return 200, {}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--webhook-secret")
    parser.add_argument("--count-only", action="store_true")
    args = parser.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    listener.set_inheritable(True)
    port = listener.getsockname()[1]
    services = Services(args.folder, args.webhook_secret, port, args.count_only)
    config = Config()
    config.bind = [f"fd://{listener.fileno()}"]
    config.certfile = services.files["cert"]
    config.keyfile = services.files["tlsKey"]
    config.alpn_protocols = ["h2", "http/1.1"]
    config.accesslog = None
    config.errorlog = None
    config.loglevel = "ERROR"
    print(json.dumps({"port": port, **services.files}), flush=True)
    asyncio.run(serve(services, config))


if __name__ == "__main__":
    main()
