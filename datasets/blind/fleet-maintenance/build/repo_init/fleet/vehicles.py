"""Vehicles of the fleet."""
from dataclasses import dataclass
from datetime import date

VEHICLE_CLASSES = ("light", "heavy")


@dataclass
class Vehicle:
    unit_no: str
    vclass: str
    odometer_km: float
    commissioned: date
    home_depot: str = ""

    def __post_init__(self):
        if self.vclass not in VEHICLE_CLASSES:
            raise ValueError(f"unknown vehicle class: {self.vclass}")
        if self.odometer_km < 0:
            raise ValueError("odometer cannot be negative")
