"""An S3-compatible server for the media store's tests: moto in server mode
(an implementation of S3 written apart from Huddle), which checks each
request's AWS Signature Version 4, with boto3 (AWS's own client) to make
the bucket and to look inside it.

    s3_server.py serve BUCKET
        serves on a free port, signatures checked; prints {"endpoint", "key",
        "secret"} once the bucket exists and that key may use it
    s3_server.py list ENDPOINT KEY SECRET BUCKET
        prints the bucket's object names, one JSON list
"""
import json
import os
import sys
import time

import contextlib

# moto checks every request's signature and the key's rights, past the
# first three (which make the user, its rights and its key).
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("AWS_ACCESS_KEY_ID", "bootstrap")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bootstrap")

import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402


def client(service, endpoint, key=None, secret=None):
    return boto3.client(
        service, endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key, aws_secret_access_key=secret,
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def main():
    if sys.argv[1] == "serve":
        from moto.server import ThreadedMotoServer
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        with contextlib.redirect_stdout(sys.stderr):
            server.start()
        endpoint = f"http://127.0.0.1:{server._server.server_port}"
        iam = client("iam", endpoint)
        iam.create_user(UserName="huddle")
        iam.put_user_policy(
            UserName="huddle", PolicyName="media",
            PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
        made = iam.create_access_key(UserName="huddle")["AccessKey"]
        key, secret = made["AccessKeyId"], made["SecretAccessKey"]
        client("s3", endpoint, key, secret).create_bucket(Bucket=sys.argv[2])
        print(json.dumps({"endpoint": endpoint, "key": key, "secret": secret}), flush=True)
        while True:
            time.sleep(3600)
    else:
        endpoint, key, secret, bucket = sys.argv[2:6]
        listed = client("s3", endpoint, key, secret).list_objects_v2(Bucket=bucket)
        print(json.dumps(sorted(item["Key"] for item in listed.get("Contents", []))))


if __name__ == "__main__":
    main()
