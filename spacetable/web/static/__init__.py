"""Static files of the browser client (a package only so that setuptools ships them)."""
