"""A real OTLP/HTTP receiver for the tracing tests: it decodes each
ExportTraceServiceRequest with the official opentelemetry-proto package
and appends one JSON line per span to the file given, then prints its port.

    otlp_receiver.py FILE [--status N] [--header NAME]

Each line: trace_id, span_id, parent_span_id (hex, "" for none), name,
kind (the enum's number), start and end (ns), attributes (key → value,
arrays as lists), status_code, events' names, flags, trace_state, and the
resource's attributes and the scope's name. With --status N it answers N
(and records nothing); with --header NAME each line carries that request
header's value as "header".
"""
import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)


def value(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(item) for item in any_value.array_value.values]
    if kind is None:
        return None
    return getattr(any_value, kind)


def attributes(pairs):
    return {pair.key: value(pair.value) for pair in pairs}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--status", type=int, default=200)
    parser.add_argument("--header")
    options = parser.parse_args()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
                self.send_response(404)
                self.end_headers()
                return
            if options.status != 200:
                self.send_response(options.status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            lines = []
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        lines.append(json.dumps({
                            "trace_id": span.trace_id.hex(),
                            "span_id": span.span_id.hex(),
                            "parent_span_id": span.parent_span_id.hex(),
                            "name": span.name,
                            "kind": span.kind,
                            "start": span.start_time_unix_nano,
                            "end": span.end_time_unix_nano,
                            "attributes": attributes(span.attributes),
                            "status_code": span.status.code,
                            "events": [event.name for event in span.events],
                            "flags": span.flags,
                            "trace_state": span.trace_state,
                            "resource": resource,
                            "scope": scope_spans.scope.name,
                            "header": self.headers.get(options.header) if options.header else None,
                        }))
            with lock:
                with open(options.file, "a") as out:
                    for line in lines:
                        out.write(line + "\n")
            reply = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
