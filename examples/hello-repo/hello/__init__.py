"""hello: a toy service used as errdex's bundled example."""

from hello.errors import HelloError, QuotaExceeded

__all__ = ["HelloError", "QuotaExceeded"]
