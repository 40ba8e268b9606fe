"""What the learning features keep (issue 22): analyses cached with their match, hints used per match and seat,
tutorial progress per account (migration ``0008_learn``)."""

from . import models  # the tables join the schema (Base.metadata) whenever the package is imported

__all__ = ["models"]
