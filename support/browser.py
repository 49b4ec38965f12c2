"""Debian's Chromium as the browser tests and the screenshot script drive it."""

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
