from dataclasses import dataclass
from datetime import time


@dataclass(frozen=True)
class Window:
    start: time
    end: time

    def contains(self, moment):
        t = moment.timetz().replace(tzinfo=None) if hasattr(moment, "timetz") else moment
        if self.start <= self.end:
            return self.start <= t < self.end
        return t >= self.start or t < self.end


DEFAULT_WINDOWS = (
    Window(time(4, 0), time(8, 0)),
    Window(time(18, 0), time(21, 0)),
)


def allowed(moment, windows=DEFAULT_WINDOWS):
    return any(w.contains(moment) for w in windows)
