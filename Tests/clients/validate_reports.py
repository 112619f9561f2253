"""Reads `huddle validate`'s JUnit XML and SARIF reports as CI systems do,
with libraries written apart from Huddle (junitparser; sarif-pydantic's
models of SARIF 2.1.0, which refuse a log that does not fit them), and
prints what they found as one JSON object.

    python3 validate_reports.py junit REPORT.xml
    python3 validate_reports.py sarif REPORT.sarif
"""
import json
import sys


def junit(path):
    from junitparser import JUnitXml
    xml = JUnitXml.fromfile(path)
    cases = []
    for suite in xml:
        for case in suite:
            failures = [r for r in case.result if r._tag == "failure"]
            cases.append({
                "name": case.name,
                "classname": case.classname,
                "failed": bool(failures),
                "message": failures[0].message if failures else None,
                "type": failures[0].type if failures else None,
                "text": failures[0].text if failures else None,
                "out": case.system_out,
            })
    return {"tests": xml.tests, "failures": xml.failures, "cases": cases}


def sarif(path):
    from sarif_pydantic import Sarif
    with open(path, encoding="utf-8") as f:
        log = Sarif.model_validate(json.load(f))
    run = log.runs[0]
    results = []
    for result in run.results or []:
        location = result.locations[0].physical_location if result.locations else None
        results.append({
            "ruleId": result.rule_id,
            "level": result.level.value if hasattr(result.level, "value") else result.level,
            "message": result.message.text,
            "uri": location.artifact_location.uri if location else None,
            "line": location.region.start_line if location else None,
            "column": location.region.start_column if location else None,
        })
    rules = [rule.id for rule in (run.tool.driver.rules or [])]
    return {"version": log.version, "driver": run.tool.driver.name, "rules": rules, "results": results}


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    print(json.dumps(junit(path) if kind == "junit" else sarif(path)))
