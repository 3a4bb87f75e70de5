"""Exceptions raised by hello."""


class HelloError(Exception):
    """Base class of hello's errors."""


class QuotaExceeded(HelloError):
    def __init__(self, user, limit):
        super().__init__(f"user {user} exceeded the quota of {limit} greetings")
        self.user = user
        self.limit = limit


def check_name(name):
    if not isinstance(name, str):
        raise TypeError(
            "name must be a str, "
            "got %s" % type(name).__name__
        )
    if not name:
        raise ValueError("name must not be empty")
    assert len(name) < 256, f"name is too long ({len(name)} characters)"
    return name.strip()
