"""Sends a picture by the GraphQL multipart request specification with
Python's requests, as a client written apart from the server would.

    upload.py URL TOKEN FILE    sets the signed-in user's avatar from FILE;
                                prints its thumbnail's path
"""
import json
import sys

import requests


def main():
    url, token, path = sys.argv[1:4]
    operations = {
        "query": "mutation($f: Upload!) { setAvatar(file: $f) { avatar(size: THUMBNAIL) } }",
        "variables": {"f": None},
    }
    with open(path, "rb") as picture:
        answer = requests.post(
            url,
            headers={"Authorization": f"Bearer {token}", "GraphQL-Require-Preflight": "1"},
            data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.f"]})},
            files={"0": ("picture.webp", picture, "image/webp")},
            timeout=60,
        )
    body = answer.json()
    if answer.status_code != 200 or body.get("errors"):
        print(answer.status_code, body)
        sys.exit(1)
    print(body["data"]["setAvatar"]["avatar"])


if __name__ == "__main__":
    main()
