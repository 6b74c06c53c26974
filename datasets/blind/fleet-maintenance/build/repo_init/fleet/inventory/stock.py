"""Stock levels per depot, counted in pieces."""


class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self):
        self.levels = {}
        self.reserved = {}

    def receive(self, depot, part_no, qty):
        key = (depot, part_no)
        self.levels[key] = self.levels.get(key, 0) + qty

    def available(self, depot, part_no):
        key = (depot, part_no)
        return self.levels.get(key, 0) - self.reserved.get(key, 0)

    def reserve(self, depot, part_no, qty):
        if qty > self.available(depot, part_no):
            raise OutOfStock(f"{part_no} at {depot}: need {qty}")
        key = (depot, part_no)
        self.reserved[key] = self.reserved.get(key, 0) + qty

    def release(self, depot, part_no, qty):
        key = (depot, part_no)
        self.reserved[key] = max(0, self.reserved.get(key, 0) - qty)

    def consume(self, depot, part_no, qty):
        key = (depot, part_no)
        self.release(depot, part_no, qty)
        self.levels[key] = self.levels.get(key, 0) - qty
