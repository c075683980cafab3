"""Tests in real browsers (chromium through Playwright; Firefox and WebKit through WebDriver)."""
