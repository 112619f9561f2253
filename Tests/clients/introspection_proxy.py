"""An HTTPS front for a GraphQL endpoint, as a team's staging server sits
behind TLS: forwards each POST to UPSTREAM and records the Authorization
header it was sent in LOG. With --legacy it answers like a server that
predates the September 2025 introspection fields, refusing any query that
asks for isOneOf.

usage: introspection_proxy.py CERT KEY UPSTREAM LOG [--legacy]
Prints the port it listens on, then serves until killed."""

import http.client
import http.server
import json
import ssl
import sys
import urllib.parse

cert, key, upstream, log = sys.argv[1:5]
legacy = "--legacy" in sys.argv[5:]
target = urllib.parse.urlsplit(upstream)


class Proxy(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(log, "a") as record:
            record.write(f"{self.path} {self.headers.get('Authorization')}\n")
        if legacy and b"isOneOf" in body:
            answer = json.dumps({"errors": [{"message": 'Cannot query field "isOneOf" on type "__Type".'}]}).encode()
            status = 400
        else:
            connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            connection.request("POST", target.path, body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            status, answer = response.status, response.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *arguments):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Proxy)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
