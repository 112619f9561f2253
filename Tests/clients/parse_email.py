"""Reads an email (the file named first) with Python's own parser (the standard library's
`email`, strict policy) and prints what it found as JSON: the decoded
headers, each text part's decoded content and type, and any defects."""
import email
import email.policy
import json
import sys

with open(sys.argv[1], "rb") as f:
    raw = f.read()
message = email.message_from_bytes(raw, policy=email.policy.strict.clone(raise_on_defect=False))
parts = []
for part in message.walk():
    if part.get_content_maintype() == "multipart":
        continue
    parts.append({
        "type": part.get_content_type(),
        "charset": part.get_content_charset(),
        "encoding": part.get("Content-Transfer-Encoding"),
        "content": part.get_content(),
    })
lines = raw.split(b"\r\n")
print(json.dumps({
    "from": str(message["From"]),
    "fromName": message["From"].addresses[0].display_name,
    "fromAddress": message["From"].addresses[0].addr_spec,
    "to": message["To"].addresses[0].addr_spec,
    "subject": str(message["Subject"]),
    "messageID": str(message["Message-ID"]),
    "date": str(message["Date"]),
    "listUnsubscribe": message["List-Unsubscribe"] and str(message["List-Unsubscribe"]),
    "listUnsubscribePost": message["List-Unsubscribe-Post"] and str(message["List-Unsubscribe-Post"]),
    "type": message.get_content_type(),
    "parts": parts,
    "defects": [type(d).__name__ for d in message.defects] + [type(d).__name__ for p in message.walk() for d in p.defects],
    "bareLineFeeds": raw.replace(b"\r\n", b"").count(b"\n"),
    "longestLine": max(len(l) for l in lines),
}))
