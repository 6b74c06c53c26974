from datetime import date, datetime, timedelta

SERVICE_DAY_START_HOUR = 3


def service_day(at: datetime) -> date:
    return (at - timedelta(hours=SERVICE_DAY_START_HOUR)).date()
