import json


def build_payload(settings, alerts):
    return {
        "site": settings.site_code,
        "alerts": [
            {"kind": a.kind, "zone": a.zone_id, "severity": a.severity, "message": a.message} for a in alerts
        ],
    }


def build_request(settings, alerts):
    headers = {"Content-Type": "application/json"}
    if settings.webhook_token:
        headers["Authorization"] = f"Bearer {settings.webhook_token}"
    body = json.dumps(build_payload(settings, alerts), sort_keys=True)
    return settings.webhook_url, headers, body
