"""Greets people, within a quota."""
import logging
import warnings

from hello.errors import HelloError, QuotaExceeded, check_name

logger = logging.getLogger(__name__)

MAX_GREETINGS = 3
UNKNOWN_LANGUAGE = "unknown language {!r}; expected one of: {}"
GREETINGS = {"en": "Hello", "fr": "Bonjour", "de": "Hallo"}


class Greeter:
    def __init__(self, language="en", polite=False):
        if language not in GREETINGS:
            raise HelloError(UNKNOWN_LANGUAGE.format(language, ", ".join(GREETINGS)))
        if polite:
            warnings.warn("polite=True is deprecated; use a formal language instead", DeprecationWarning)
        self.language = language
        self.counts = {}

    def greet(self, name):
        name = check_name(name)
        count = self.counts.get(name, 0)
        if count >= MAX_GREETINGS:
            raise QuotaExceeded(name, MAX_GREETINGS)
        if count == MAX_GREETINGS - 1:
            logger.warning("user %s is about to reach the quota of %d greetings", name, MAX_GREETINGS)
        self.counts[name] = count + 1
        return "{greeting}, {name}!".format(greeting=GREETINGS[self.language], name=name)

    def reset(self, name):
        try:
            del self.counts[name]
        except KeyError:
            logger.error(f"cannot reset {name!r}: never greeted")
            raise
        assert name not in self.counts

    def switch(self, language):
        msg = "cannot switch to " + language + " after greeting " + str(len(self.counts)) + " people"
        if self.counts:
            raise RuntimeError(msg)
        self.language = language
