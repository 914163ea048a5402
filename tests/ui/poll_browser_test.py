#!/usr/bin/env python3
"""Ask the class with a real browser: starts `launchlab --course ID --presentation --ask --ask-bind 127.0.0.1`
offscreen, opens the URL it prints in headless Chromium (driven by Selenium and chromium-driver), answers with the
keyboard as a student would, and checks that the window counted it (its "poll: 1 answer" line, printed from the same
signal that updates the stage's count) and that the status GET agrees. The page must be one self-contained file of
at most 30 KB.

Usage: poll_browser_test.py LAUNCHLAB [COURSE_ID]
Exit 0: passed; 1: failed (the reason on stderr); 77: skipped (Chromium, chromium-driver or python3-selenium
missing; Debian: apt-get install chromium chromium-driver python3-selenium), a failure instead under
LAUNCHLAB_REQUIRE_BROWSER=1 (CI, which installs them: scripts/ci_browser.sh).
"""
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

SKIP = 77
DEADLINE_S = 90  # the whole test; each wait below is bounded too


def skip(why):
    if os.environ.get("LAUNCHLAB_REQUIRE_BROWSER") == "1":
        fail(f"LAUNCHLAB_REQUIRE_BROWSER=1 but {why}")
    print(f"SKIP: {why}")
    sys.exit(SKIP)


def fail(why):
    print(f"FAIL: {why}", file=sys.stderr)
    sys.exit(1)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    skip("python3-selenium is not installed for " + sys.executable)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM:
    skip("no chromium on PATH")
if not DRIVER:
    skip("no chromedriver on PATH (Debian: chromium-driver)")


def read_lines(stream, lines):
    for line in stream:
        lines.put(line.rstrip("\n"))


def wait_for_line(lines, prefix, seconds):
    """The first stdout line that starts with `prefix` within `seconds`, else None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            line = lines.get(timeout=max(0.05, end - time.monotonic()))
        except queue.Empty:
            return None
        print(f"launchlab: {line}")
        if line.startswith(prefix):
            return line
    return None


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=412,915"):  # a phone's viewport
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def main():
    if len(sys.argv) < 2:
        fail(__doc__)
    launchlab = sys.argv[1]
    course = sys.argv[2] if len(sys.argv) > 2 else "es-coalescing"
    started = time.monotonic()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    app = subprocess.Popen(
        [launchlab, "--fresh", "--course", course, "--presentation", "--ask", "--ask-bind", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = queue.Queue()
    threading.Thread(target=read_lines, args=(app.stdout, lines), daemon=True).start()
    driver = None
    try:
        line = wait_for_line(lines, "poll: http://", 60)
        if not line:
            fail("launchlab printed no 'poll: http://ADDRESS:PORT/CODE' line")
        url = line.split(" ", 1)[1]
        if not url.startswith("http://127.0.0.1:"):
            fail(f"the poll does not listen where --ask-bind said: {url}")
        with urllib.request.urlopen(url, timeout=10) as r:
            page = r.read()
        if len(page) > 30 * 1024:
            fail(f"the page is {len(page)} bytes (at most 30 KB)")
        driver = browser()
        driver.set_page_load_timeout(20)
        driver.get(url)
        question = driver.find_element(By.ID, "question").text
        if not question.strip():
            fail("the page shows no question")
        print(f"page: {question!r}, {len(page)} bytes")
        # As a student with a keyboard: the number field has the focus (a choice: the first button, Enter).
        numbers = driver.find_elements(By.CSS_SELECTOR, "input[type=number]")
        if numbers:
            numbers[0].send_keys("4", Keys.ENTER)
        else:
            driver.find_elements(By.CSS_SELECTOR, "#input button")[0].send_keys(Keys.ENTER)
        WebDriverWait(driver, 10).until(lambda d: "received" in d.find_element(By.ID, "msg").text)
        if not wait_for_line(lines, "poll: 1 answer", 10):
            fail("the window did not count the browser's answer")
        with urllib.request.urlopen(url + "/status", timeout=10) as r:
            status = json.load(r)
        if status != {"open": True, "answers": 1}:
            fail(f"status: {status}")
        print(f"PASS in {time.monotonic() - started:.1f} s")
    finally:
        if driver:
            driver.quit()
        app.terminate()
        try:
            app.wait(timeout=15)
        except subprocess.TimeoutExpired:
            app.kill()
    # The window's end stops the server.
    try:
        urllib.request.urlopen(url, timeout=5)
        fail("the poll still answers after the window quit")
    except OSError:
        pass


if __name__ == "__main__":
    watchdog = threading.Timer(DEADLINE_S, lambda: os._exit(1))
    watchdog.daemon = True
    watchdog.start()
    main()
