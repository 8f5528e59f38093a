"""Browser tests (Playwright driving Debian's Chromium)."""
