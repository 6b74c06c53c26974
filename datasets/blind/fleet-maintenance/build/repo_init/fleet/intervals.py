"""Service intervals by mileage and time."""
from datetime import timedelta

SERVICE_KM = {"light": 15000, "heavy": 20000}
SERVICE_DAYS = {"light": 365, "heavy": 180}


def next_service_km(vehicle, last_service_km):
    return last_service_km + SERVICE_KM[vehicle.vclass]


def next_service_date(vehicle, last_service_date):
    return last_service_date + timedelta(days=SERVICE_DAYS[vehicle.vclass])


def service_due(vehicle, last_service_km, last_service_date, today):
    """A service is due when either the distance or the time limit is reached."""
    if vehicle.odometer_km >= next_service_km(vehicle, last_service_km):
        return True
    return today >= next_service_date(vehicle, last_service_date)
