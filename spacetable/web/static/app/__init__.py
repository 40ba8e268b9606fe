"""The browser client (ES modules, no build step)."""
