"""What the learning features keep (issue 22): analyses cached with their match, hints used per match and seat,
tutorial progress per account (migration ``0008_learn``)."""
