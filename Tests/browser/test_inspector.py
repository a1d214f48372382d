"""Real-browser tests of the inspector and the demo preview: headless Chromium (Debian's
chromium + chromium-driver, python3-selenium; run with /usr/bin/python3) drives two pages and
the `rivesync` CLI against one rivesyncd.

    /usr/bin/python3 Tests/browser/test_inspector.py     (after `swift build`)

Environment: RIVESYNCD / RIVESYNC (binaries; default .build/debug/…), RIVESYNC_SCREENSHOTS
(directory for the screenshots; default a temporary one). The steps run in order and share the
daemon and the two browsers; a failing step stops the run.
"""

import asyncio
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import zlib

import websockets
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RIVESYNCD = os.environ.get("RIVESYNCD", os.path.join(ROOT, ".build/debug/rivesyncd"))
RIVESYNC = os.environ.get("RIVESYNC", os.path.join(ROOT, ".build/debug/rivesync"))
TIMEOUT = 30.0
READER_TOKEN = "reader-" + os.urandom(8).hex()
HISTORY_BATCHES = 2048


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, what, timeout=TIMEOUT):
    """Polls `condition` until it returns a truthy value (returned) or fails after `timeout`."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # a stale element while the tree re-renders: try again
            last_error = error
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}" + (f" (last error: {last_error})" if last_error else ""))


def png_bytes():
    """A valid 2x2 PNG (the daemon checks the magic; browsers can show it)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\xff\x00\x00\xff" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


class Daemon:
    """rivesyncd with the test configuration on a fixed port (so a restart keeps the address)."""

    def __init__(self, directory, port):
        self.directory = directory
        self.port = port
        self.process = None

    def start(self):
        self.log = open(os.path.join(self.directory, "rivesyncd.log"), "ab")
        self.process = subprocess.Popen([RIVESYNCD, "--config", os.path.join(self.directory, "config.json")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = b""
        deadline = time.monotonic() + 60
        while b"listening on" not in line:
            line = self.process.stderr.readline()
            self.log.write(line)
            if not line and self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"rivesyncd did not start: {line!r}")
        threading.Thread(target=self._drain, args=(self.process, self.log), daemon=True).start()

    @staticmethod
    def _drain(process, log):
        for line in process.stderr:
            log.write(line)
            log.flush()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)

    def request(self, message, token=None):
        """One request on a fresh connection (no Origin: a non-browser client): the reply."""
        async def run():
            async with websockets.connect(f"ws://127.0.0.1:{self.port}/", subprotocols=["rivesync.v1"]) as ws:
                hello = {"type": "hello", "id": "h", "protocol": [1]}
                if token:
                    hello["token"] = token
                await ws.send(json.dumps(hello))
                json.loads(await ws.recv())
                await ws.send(json.dumps({**message, "id": "r"}))
                while True:
                    reply = json.loads(await ws.recv())
                    if reply.get("id") == "r":
                        return reply
        return asyncio.run(asyncio.wait_for(run(), TIMEOUT))

    def get(self, target, path):
        reply = self.request({"type": "get", "target": target, "path": path})
        assert reply["type"] == "value", reply
        return reply["value"]


def chromium():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                     "--disable-dev-shm-usage", "--no-first-run"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


class InspectorInBrowsers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="rivesync-browser-")
        cls.screenshots = os.environ.get("RIVESYNC_SCREENSHOTS") or os.path.join(cls.directory, "screenshots")
        os.makedirs(cls.screenshots, exist_ok=True)
        cls.port = free_port()
        cls.origin = f"http://127.0.0.1:{cls.port}"
        with open(os.path.join(cls.directory, "tokens.json"), "w") as f:
            json.dump({"tokens": [{"name": "reader", "token": READER_TOKEN, "scopes": [{"allow": ["read"], "target": "*"}]}]}, f)
        os.chmod(os.path.join(cls.directory, "tokens.json"), 0o600)
        config = {
            "listen": {"host": "127.0.0.1", "port": cls.port},
            "stateDirectory": os.path.join(cls.directory, "state"),
            "files": [{"name": "demo", "path": os.path.join(ROOT, "protocol/examples/demo.schema.json"), "worker": 0},
                      {"name": "kitchen", "path": os.path.join(ROOT, "Tests/browser/kitchen.schema.json"), "worker": 1},
                      {"name": "lvm", "path": os.path.join(ROOT, "..", "shared", "fixtures", "riv", "listener_view_model.riv"),
                       "worker": 0},
                      {"name": "events", "path": os.path.join(ROOT, "..", "shared", "fixtures", "riv", "vm_listener_fire_event.riv"),
                       "worker": 1},
                      # The README's "Your own .riv file" (written by the project's RiveFileWriter).
                      {"name": "quickstart", "path": os.path.join(ROOT, "examples", "quickstart.riv"), "worker": 0}],
            "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
            "stateMachines": [
                {"name": "character", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}},
                {"name": "lobby", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}},
                {"name": "gadget", "file": "kitchen", "artboard": "Gadget"},
                # Rive's own files (../shared/fixtures/riv): state machines the daemon runs.
                {"name": "lvm", "file": "lvm", "artboard": "main", "mode": "manual"},
                {"name": "ding", "file": "events", "artboard": "Artboard", "mode": "manual"},
                {"name": "main", "file": "quickstart", "artboard": "Main"}],
            # The CLI sends no Origin, so the list names only the pages' origin.
            "auth": {"tokensFile": "tokens.json", "allowAnonymous": "loopback", "allowedOrigins": [cls.origin]},
            "inspector": {"enabled": True, "readOnly": False},
            # More than the default 1,024, so that the timeline's history must follow the setting.
            "limits": {"historyBatches": HISTORY_BATCHES},
        }
        with open(os.path.join(cls.directory, "config.json"), "w") as f:
            json.dump(config, f)
        cls.daemon = Daemon(cls.directory, cls.port)
        cls.daemon.start()
        cls.a = chromium()
        cls.b = chromium()
        cls.logs = []
        cls.restart_window = None

    @classmethod
    def tearDownClass(cls):
        for driver in (cls.a, cls.b):
            driver.quit()
        cls.daemon.stop()
        shutil.rmtree(cls.directory, ignore_errors=True)

    # Helpers

    def collect_logs(self):
        for name, driver in (("A", self.a), ("B", self.b)):
            for entry in driver.get_log("browser"):
                self.logs.append((name, entry["timestamp"], entry))

    def open_inspector(self, driver, target="gadget"):
        driver.get(self.origin + "/")
        wait_for(lambda: driver.find_element(By.ID, "connection").text == "open", "the inspector to connect")
        self.select(driver, target)

    def select(self, driver, target):
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'#targets button[data-target="{target}"]'), "the target list").click()
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'#targets button[data-target="{target}"]').get_attribute("aria-pressed") == "true"
                 and driver.find_element(By.ID, "access").text != "", f"{target} to be shown")
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#tree .row"), "the tree")

    def editor(self, driver, path):
        return driver.find_element(By.CSS_SELECTOR, f'#tree .editor[data-path="{path}"]')

    def status(self, driver):
        return driver.find_element(By.ID, "status").text

    def wait_ok(self, driver, label):
        """Waits for the status line to report `label` as acknowledged; returns the ack's seq (or None)."""
        seen = []

        def outcome():
            text = self.status(driver)
            if not seen or seen[-1] != text:
                seen.append(text)
            return text if text.startswith(label) and (": ok" in text or " — " in text) else None
        try:
            text = wait_for(outcome, f"the outcome of {label!r}")
        except AssertionError as error:
            raise AssertionError(f"{error}; the status line showed {seen[-8:]!r}") from None
        self.assertIn(": ok", text, text)
        return int(text.rsplit("seq ", 1)[1].rstrip(")")) if "(seq " in text else None

    def type_into(self, driver, path, text):
        field = self.editor(driver, path)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text)
        field.send_keys(Keys.TAB)

    def set_by_events(self, driver, element, value):
        """Sets an input's value and dispatches `change` (what picking a colour or dragging a slider does)."""
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
                              element, value)

    def click(self, driver, selector):
        wait_for(lambda: driver.find_element(By.CSS_SELECTOR, selector), selector).click()

    def shown_digest(self, driver):
        node = driver.find_element(By.ID, "digest")
        return node.get_attribute("data-seq"), node.get_attribute("data-digest")

    def assert_pages_converge(self, target="gadget"):
        def converged():
            reply = self.daemon.request({"type": "digest", "target": target})
            expected = (str(reply["seq"]), reply["digest"])
            return expected if all(self.shown_digest(d) == expected for d in (self.a, self.b)) else None
        return wait_for(converged, "both pages' replica digests to equal the daemon's", timeout=60)

    # Steps, in order

    def test_01_pages_are_served_with_a_policy_and_both_connect(self):
        import urllib.request
        with urllib.request.urlopen(self.origin + "/") as response:
            policy = response.headers["Content-Security-Policy"]
            self.assertIn("script-src 'self'", policy)
            self.assertNotIn("unsafe-inline", policy)
            self.assertNotIn("<script>", response.read().decode())
        self.open_inspector(self.a)
        self.open_inspector(self.b)
        self.assertEqual(self.a.find_element(By.ID, "access").text, "editable")
        files = self.a.find_element(By.ID, "files").text
        for word in ["Gadget", "tint: color", "size: enum Size", "Size: small, medium, large", "Other", "Theme (global)"]:
            self.assertIn(word, files)
        # The console check below can see errors: a probe error must come through the log.
        self.a.execute_script("console.error('rivesync-test-probe');")
        self.collect_logs()
        self.assertTrue(any("rivesync-test-probe" in e["message"] and e["level"] == "SEVERE" for _, _, e in self.logs), self.logs)

    def test_02_an_edit_in_page_a_reaches_page_b_and_the_cli_in_one_advance(self):
        watch = subprocess.Popen([RIVESYNC, "watch", "gadget", "count", "--url", f"ws://127.0.0.1:{self.port}", "--json", "--count", "2",
                                  "--current"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = watch.stdout.readline()
            self.assertTrue(line, f"rivesync watch printed nothing: {watch.stderr.read() if watch.poll() is not None else ''}")
            first = json.loads(line)
            self.assertEqual({k: first[k] for k in ("path", "value")}, {"path": "count", "value": 0})
            self.type_into(self.a, "count", "5")
            seq = self.wait_ok(self.a, "set count")
            wait_for(lambda: self.editor(self.b, "count").get_attribute("value") == "5", "page B to show 5")
            newest = self.b.find_element(By.CSS_SELECTOR, "#timeline li")
            self.assertEqual(newest.get_attribute("data-seq"), str(seq), "page B got the value in the batch of the advance that applied it")
            self.assertIn("set count = 5", newest.text)
            self.assertIn("by rivesync-inspector", newest.text, "the timeline says who sent the batch's command (PROTOCOL.md §17)")
            second = json.loads(watch.stdout.readline())
            self.assertEqual({k: second[k] for k in ("path", "value")}, {"path": "count", "value": 5})
            self.assertGreaterEqual(second["seq"], seq, "the CLI printed 5 once it had applied the batch that set it")
            self.assertEqual(watch.wait(timeout=TIMEOUT), 0)
        finally:
            if watch.poll() is None:
                watch.kill()
        self.collect_logs()

    def test_03_a_cli_set_appears_in_both_pages(self):
        subprocess.run([RIVESYNC, "set", "gadget", "label", "from the CLI", "--url", f"ws://127.0.0.1:{self.port}"], check=True,
                       capture_output=True, timeout=TIMEOUT)
        for driver in (self.a, self.b):
            wait_for(lambda: self.editor(driver, "label").get_attribute("value") == "from the CLI", "the CLI's label in a page")
        self.collect_logs()

    def test_03a_a_presence_member_shows_in_both_pages_and_leaves_after_the_grace(self):
        joined = self.daemon.request({"type": "presenceJoin", "target": "gadget", "key": "browser-" + os.urandom(8).hex(),
                                      "state": {"name": "browser-test"}})
        self.assertEqual(joined["type"], "presenceJoined", joined)
        member = f'#presence li[data-member="{joined["member"]}"]'
        for driver in (self.a, self.b):
            shown = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, member), "the member in a page")[0].text
            self.assertIn(joined["member"], shown)
            self.assertIn('"name": "browser-test"', shown, "the member's state is shown with it")
            self.assertEqual(driver.find_element(By.ID, "presence-target").text, "gadget")
        # Its connection closed with the request: it leaves once the grace period (10 s) ends.
        for driver in (self.a, self.b):
            wait_for(lambda: driver.find_element(By.ID, "presence").text == "(no members)", "the member's leave in a page")
        self.collect_logs()

    def test_04_each_editor_type_round_trips(self):
        a, b, daemon = self.a, self.b, self.daemon
        # number and string (typed), boolean (clicked)
        self.type_into(a, "count", "-2.5")
        self.wait_ok(a, "set count")
        self.assertEqual(daemon.get("gadget", "count"), -2.5)
        wait_for(lambda: self.editor(b, "count").get_attribute("value") == "-2.5", "number in B")
        self.type_into(a, "label", "hello")
        self.wait_ok(a, "set label")
        self.assertEqual(daemon.get("gadget", "label"), "hello")
        wait_for(lambda: self.editor(b, "label").get_attribute("value") == "hello", "string in B")
        self.editor(a, "enabled").click()
        self.wait_ok(a, "set enabled")
        self.assertIs(daemon.get("gadget", "enabled"), True)
        wait_for(lambda: self.editor(b, "enabled").is_selected(), "boolean in B")
        # colour with alpha
        tint = self.editor(a, "tint")
        self.set_by_events(a, tint.find_element(By.CSS_SELECTOR, '[data-part="rgb"]'), "#12ab34")
        self.wait_ok(a, "set tint")
        self.set_by_events(a, self.editor(a, "tint").find_element(By.CSS_SELECTOR, '[data-part="alpha"]'), "128")
        self.wait_ok(a, "set tint")
        self.assertEqual(daemon.get("gadget", "tint"), "#8012AB34")
        wait_for(lambda: self.editor(b, "tint").find_element(By.CSS_SELECTOR, '[data-part="text"]').text == "#8012AB34", "colour in B")
        self.assertEqual(self.editor(b, "tint").find_element(By.CSS_SELECTOR, '[data-part="alpha"]').get_attribute("value"), "128")
        # enum
        Select(self.editor(a, "size")).select_by_value("large")
        self.wait_ok(a, "set size")
        self.assertEqual(daemon.get("gadget", "size"), "large")
        wait_for(lambda: self.editor(b, "size").get_attribute("value") == "large", "enum in B")
        # trigger, with its fire count
        self.editor(a, "ping").find_element(By.CSS_SELECTOR, '[data-part="fire"]').click()
        self.wait_ok(a, "fire ping")
        self.editor(a, "ping").find_element(By.CSS_SELECTOR, '[data-part="fire"]').click()
        self.wait_ok(a, "fire ping")
        self.assertEqual(daemon.get("gadget", "ping"), 2)
        wait_for(lambda: self.editor(b, "ping").text.endswith("fired 2"), "fire count in B")
        # artboard select
        Select(self.editor(a, "scene")).select_by_value("Other")
        self.wait_ok(a, "set scene")
        self.assertEqual(daemon.get("gadget", "scene"), "Other")
        wait_for(lambda: self.editor(b, "scene").get_attribute("value") == "Other", "artboard in B")
        # image upload
        picture = os.path.join(self.directory, "picture.png")
        with open(picture, "wb") as f:
            f.write(png_bytes())
        self.editor(a, "picture").find_element(By.CSS_SELECTOR, '[data-part="file"]').send_keys(picture)
        self.wait_ok(a, "upload picture")
        value = daemon.get("gadget", "picture")
        self.assertEqual((value["bytes"], value["mediaType"]), (len(png_bytes()), "image/png"))
        wait_for(lambda: self.editor(b, "picture").find_element(By.CSS_SELECTOR, '[data-part="text"]').text.startswith(value["id"][:19]),
                 "asset in B")
        # list add, insert, swap, remove
        row = a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="parts"]')
        Select(row.find_element(By.CSS_SELECTOR, '[data-part="choice"]')).select_by_visible_text("Part/Bolt")
        self.click(a, '#tree button[data-action="add"][data-path="parts"]')
        self.wait_ok(a, "add to parts")
        row = a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="parts"]')
        Select(row.find_element(By.CSS_SELECTOR, '[data-part="choice"]')).select_by_visible_text("Part/Nut")
        self.click(a, '#tree button[data-action="insert"][data-path="parts/0"]')
        self.wait_ok(a, "insert parts/0")
        names = lambda: [daemon.get("gadget", f"parts/{i}/name") for i in range(len(daemon.get("gadget", "parts")))]
        self.assertEqual(names(), ["nut", "bolt"])
        self.click(a, '#tree button[data-action="swap"][data-path="parts/1"]')
        self.wait_ok(a, "swap parts/1")
        self.assertEqual(names(), ["bolt", "nut"])
        wait_for(lambda: self.editor(b, "parts/0/name").get_attribute("value") == "bolt", "the list order in B")
        self.type_into(a, "parts/1/name", "renamed nut")
        self.wait_ok(a, "set parts/1/name")
        wait_for(lambda: self.editor(b, "parts/1/name").get_attribute("value") == "renamed nut", "a list item's value in B")
        self.click(a, '#tree button[data-action="remove"][data-path="parts/0"]')
        self.wait_ok(a, "remove parts/0")
        self.assertEqual(names(), ["renamed nut"])
        wait_for(lambda: len(b.find_elements(By.CSS_SELECTOR, '#tree .list-item')) == 1, "one item in B")
        # nested replacement
        before = daemon.get("gadget", "child")
        row = a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="child"]')
        Select(row.find_element(By.CSS_SELECTOR, '[data-part="choice"]')).select_by_visible_text("Part/Bolt")
        self.click(a, '#tree button[data-action="replace"][data-path="child"]')
        self.wait_ok(a, "replace child")
        self.assertNotEqual(daemon.get("gadget", "child"), before)
        self.assertEqual(daemon.get("gadget", "child/name"), "bolt")
        wait_for(lambda: self.editor(b, "child/name").get_attribute("value") == "bolt", "the new child in B")
        # path filter: rows outside it are hidden
        a.find_element(By.ID, "filter").send_keys("parts")
        wait_for(lambda: not a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="count"]').is_displayed(), "the filter to hide count")
        self.assertTrue(a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="parts"]').is_displayed())
        a.find_element(By.ID, "filter").send_keys(Keys.CONTROL, "a")
        a.find_element(By.ID, "filter").send_keys(Keys.BACKSPACE)
        wait_for(lambda: a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="count"]').is_displayed(), "the filter cleared")
        self.assert_pages_converge()
        a.save_screenshot(os.path.join(self.screenshots, "inspector.png"))
        self.collect_logs()

    def test_05_a_daemon_restart_with_a_state_directory_is_survived_by_resume(self):
        for driver in (self.a, self.b):
            driver.execute_script("window.rivesyncTestMarker = 'before the restart';")
        seq_before = self.shown_digest(self.a)[0]
        # On the class: each step runs on an instance of its own, and test_10 reads the window.
        type(self).restart_window = [time.time() * 1000, None]
        self.daemon.stop()
        for driver in (self.a, self.b):
            wait_for(lambda: driver.find_element(By.ID, "connection").text == "reconnecting", "the pages to notice")
        self.daemon.start()
        for driver in (self.a, self.b):
            wait_for(lambda: driver.find_element(By.ID, "connection").text == "open", "the pages to reconnect", timeout=60)
            wait_for(lambda: driver.find_element(By.ID, "tree").get_attribute("data-resumed") == "true", "a resume (not a new snapshot)")
            self.assertEqual(driver.execute_script("return window.rivesyncTestMarker;"), "before the restart", "the page was not reloaded")
            self.assertEqual(self.shown_digest(driver)[0], seq_before)
        self.restart_window[1] = time.time() * 1000
        self.type_into(self.a, "count", "9")
        self.wait_ok(self.a, "set count")
        wait_for(lambda: self.editor(self.b, "count").get_attribute("value") == "9", "an edit after the restart in B")
        self.collect_logs()

    def test_06_a_read_only_token_disables_the_editors_and_a_write_shows_forbidden(self):
        b = self.b
        b.find_element(By.ID, "token").send_keys(READER_TOKEN)
        b.find_element(By.ID, "connect").click()
        wait_for(lambda: b.find_element(By.ID, "access").text == "read-only token", "the page to learn the token is read-only")
        controls = b.find_elements(By.CSS_SELECTOR, "#tree input, #tree select, #tree button")
        self.assertGreater(len(controls), 15)
        enabled = [c.get_attribute("outerHTML")[:80] for c in controls if c.is_enabled()]
        self.assertEqual(enabled, [], "every editor is disabled")
        self.assertEqual(b.execute_script("return location.href;"), self.origin + "/", "the token is not in the URL")
        field = self.editor(b, "label")
        b.execute_script("arguments[0].disabled = false;", field)
        self.type_into(b, "label", "not allowed")
        wait_for(lambda: "forbidden" in self.status(b), "the write to show forbidden")
        self.assertEqual(self.daemon.get("gadget", "label"), "hello")
        b.find_element(By.ID, "token").clear()
        b.find_element(By.ID, "connect").click()
        wait_for(lambda: b.find_element(By.ID, "access").text == "editable", "page B editable again")
        self.collect_logs()

    def test_07_another_origin_is_refused(self):
        other = f"http://localhost:{self.port}/"
        self.b.get(other)
        wait_for(lambda: self.b.find_element(By.ID, "connection").text == "closed", "a page of an unlisted origin to be refused")
        self.assertIn("connection_lost", self.status(self.b))
        self.b.get("about:blank")
        self.collect_logs()
        self.open_inspector(self.b)
        self.collect_logs()

    def test_08_a_random_storm_from_the_cli_and_both_pages_converges(self):
        storm = """
            const done = arguments[arguments.length - 1];
            let seed = arguments[0];
            const random = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
            const pause = () => new Promise((r) => setTimeout(r, 5 + random(20)));
            (async () => {
              for (let i = 0; i < 60; i++) {
                const numbers = [...document.querySelectorAll('#tree input[type="number"].editor')];
                const fires = [...document.querySelectorAll('#tree .editor [data-part="fire"]')];
                const adds = [...document.querySelectorAll('#tree button[data-action="add"]')];
                const removes = [...document.querySelectorAll('#tree button[data-action="remove"]')];
                const swaps = [...document.querySelectorAll('#tree button[data-action="swap"]:not(:disabled)')];
                const pick = random(5);
                if (pick === 0 && numbers.length) {
                  const field = numbers[random(numbers.length)];
                  field.value = String(random(1000) / 4);
                  field.dispatchEvent(new Event('change', {bubbles: true}));
                } else if (pick === 1 && fires.length) fires[random(fires.length)].click();
                else if (pick === 2 && adds.length) adds[random(adds.length)].click();
                else if (pick === 3 && removes.length) removes[random(removes.length)].click();
                else if (swaps.length) swaps[random(swaps.length)].click();
                await pause();
              }
              done('ok');
            })();
        """
        def cli_storm():
            rng = random.Random(11)
            url = ["--url", f"ws://127.0.0.1:{self.port}"]
            for i in range(12):
                choice = rng.randrange(4)
                if choice == 0:
                    command = ["set", "gadget", "count", str(rng.randrange(0, 50))]
                elif choice == 1:
                    command = ["fire", "gadget", "ping"]
                elif choice == 2:
                    command = ["list", "add", "gadget", "parts", "Part/Bolt"]
                else:
                    command = ["set", "gadget", "label", f"cli {i}"]
                done = subprocess.run([RIVESYNC, *command, *url], capture_output=True, text=True, timeout=TIMEOUT)
                cli_results.append((command, done.returncode, done.stderr))
        cli_results = []
        for driver in (self.a, self.b):
            driver.set_script_timeout(120)
        results = {}
        threads = [threading.Thread(target=lambda d=d, n=n, s=s: results.__setitem__(n, d.execute_async_script(storm, s)))
                   for d, n, s in ((self.a, "A", 3), (self.b, "B", 5))]
        threads.append(threading.Thread(target=cli_storm))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
        self.assertEqual(results, {"A": "ok", "B": "ok"})
        self.assertEqual([r for r in cli_results if r[1] != 0], [], "every CLI command succeeded")
        self.assertEqual(len(cli_results), 12)
        seq, digest = self.assert_pages_converge()
        self.assertGreater(int(seq), 20, "the storm made batches")
        self.collect_logs()

    def test_09_the_preview_in_two_windows(self):
        a, b = self.a, self.b
        for driver in (a, b):
            driver.get(self.origin + "/preview.html")
            wait_for(lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true", "the preview")
        a.find_element(By.ID, "join").click()
        wait_for(lambda: len(b.find_elements(By.CSS_SELECTOR, "#lobby .player")) == 2, "A's player (and the host) in B")
        b.find_element(By.ID, "join").click()
        wait_for(lambda: len(a.find_elements(By.CSS_SELECTOR, "#lobby .player")) == 3, "B's player in A")
        players = self.daemon.get("lobby", "players")
        self.assertEqual(len(players), 2)
        area = a.find_element(By.ID, "lobby")
        webdriver.ActionChains(a).move_to_element_with_offset(area, 100, 40).click().perform()
        mine = int(a.execute_script("return sessionStorage.getItem('rivesync-preview-player');"))
        wait_for(lambda: b.find_element(By.CSS_SELECTOR, f'#lobby .player[data-instance="{mine}"] circle').get_attribute("cx") == "300",
                 "A's move in B")
        a.find_element(By.CSS_SELECTOR, '#triggers button[data-trigger="success"]').click()
        wait_for(lambda: "jump" in b.find_element(By.ID, "character").get_attribute("class"), "A's trigger animating in B")
        mood = a.find_element(By.ID, "mood")
        self.set_by_events(a, mood, "7")
        wait_for(lambda: b.find_element(By.ID, "mood-value").text == "7", "the mood in B")
        a.find_element(By.ID, "theme").click()
        wait_for(lambda: b.find_element(By.TAG_NAME, "body").get_attribute("data-theme") == "Dark", "the theme switch in B")
        wait_for(lambda: self.daemon.get("theme", "background") == "#FF121212", "the dark background at the daemon")
        wait_for(lambda: "18, 18, 18" in b.execute_script("return document.body.style.background;"), "B's page in the dark colours")
        time.sleep(0.6)  # let the trigger animation finish before the picture
        b.save_screenshot(os.path.join(self.screenshots, "preview.png"))
        self.collect_logs()

    def test_09a_a_state_machine_shows_its_layers_its_changes_and_its_events(self):
        url = ["--url", f"ws://127.0.0.1:{self.port}"]
        self.open_inspector(self.a, "lvm")
        layers = self.a.find_element(By.ID, "layers")
        self.assertIn("running", layers.text, "a new state machine is not settled")
        subprocess.run([RIVESYNC, "advance", "lvm", *url], check=True, capture_output=True, timeout=TIMEOUT)
        wait_for(lambda: "Layer 1: Timeline 1 (animation, state 1)" in self.a.find_element(By.ID, "layers").text,
                 "the layer's state after the first advance")
        subprocess.run([RIVESYNC, "set", "lvm", "col", "#64000A0F", "--advance", *url], check=True, capture_output=True,
                       timeout=TIMEOUT)
        newest = wait_for(lambda: next((li for li in self.a.find_elements(By.CSS_SELECTOR, "#timeline li")
                                        if li.get_attribute("data-seq") == "2"), None), "the batch of the write")
        self.assertIn("set col = \"#64000A0F\";", newest.text)
        self.assertIn("set num3 = 22 (state machine)", newest.text, "the listener's write, marked as the state machine's")
        self.assertNotIn("set col = \"#64000A0F\" (state machine)", newest.text)
        self.select(self.a, "ding")
        subprocess.run([RIVESYNC, "script", "-", *url], input="advance ding\nfire ding go\nadvance ding\n", check=True,
                       capture_output=True, text=True, timeout=TIMEOUT)
        wait_for(lambda: "events: ding" in self.a.find_element(By.ID, "timeline").text, "the event in the timeline")
        self.open_inspector(self.a)
        self.collect_logs()

    def test_09b_the_timeline_starts_with_the_daemons_history_and_a_list_adds_its_item_view_model(self):
        url = ["--url", f"ws://127.0.0.1:{self.port}"]
        run = lambda *arguments: subprocess.run([RIVESYNC, *arguments, *url], check=True, capture_output=True, timeout=TIMEOUT)
        run("create", "history", "--file", "demo", "--artboard", "Lobby")
        try:
            for title in ("one", "two", "three"):
                run("set", "history", "title", title)
            seq = self.daemon.request({"type": "digest", "target": "history"})["seq"]
            self.assertGreaterEqual(seq, 3)
            joined = self.daemon.request({"type": "presenceJoin", "target": "history", "key": "history-" + os.urandom(8).hex(),
                                          "state": {"name": "historian", "cursor": [3, 4]}})
            self.assertEqual(joined["type"], "presenceJoined", joined)
            # The page opens after the batches: they come from the daemon's history.
            self.open_inspector(self.a, "history")
            note = wait_for(lambda: self.a.find_element(By.ID, "history").get_attribute("data-from"), "the history to load")
            self.assertEqual(note, "1", self.a.find_element(By.ID, "history").text)
            self.assertIn(f"seq 1–{seq} from the daemon's history", self.a.find_element(By.ID, "history").text)
            items = self.a.find_elements(By.CSS_SELECTOR, "#timeline li.history")
            self.assertEqual([li.get_attribute("data-seq") for li in items], [str(s) for s in range(seq, 0, -1)])
            self.assertIn('set title = "three"', items[0].text)
            self.assertIn('set title = "one"', items[-1].text)
            self.assertIn("by rivesync", items[0].text, "a history batch says who sent it")
            # A batch after the page loaded goes on top, live.
            run("set", "history", "title", "four")
            newest = wait_for(lambda: self.a.find_element(By.CSS_SELECTOR, f'#timeline li[data-seq="{seq + 1}"]'), "the live batch")
            self.assertEqual(self.a.find_element(By.CSS_SELECTOR, "#timeline li").get_attribute("data-seq"), str(seq + 1))
            self.assertNotIn("history", newest.get_attribute("class") or "")
            # The presence pane: the member and its state.
            shown = wait_for(lambda: self.a.find_elements(By.CSS_SELECTOR, f'#presence li[data-member="{joined["member"]}"]'),
                             "the member")[0].text
            self.assertIn('"name": "historian"', shown)
            self.assertIn('"cursor"', shown)
            # The list editor offers the list's item view model first (players → Player).
            row = self.a.find_element(By.CSS_SELECTOR, '#tree .row[data-path="players"]')
            chosen = Select(row.find_element(By.CSS_SELECTOR, '[data-part="choice"]')).first_selected_option.text
            self.assertTrue(chosen.startswith("Player/"), chosen)
            self.click(self.a, '#tree button[data-action="add"][data-path="players"]')
            self.wait_ok(self.a, "add to players")
            item = self.daemon.get("history", "players")[0]
            self.assertEqual(self.daemon.request({"type": "get", "target": "history", "path": "players/0/name"})["type"], "value",
                             f"item #{item} is a Player")
        finally:
            run("delete", "history")
        self.open_inspector(self.a)
        self.collect_logs()

    def test_09c_the_history_reaches_back_as_far_as_the_daemons_history_batches(self):
        url = ["--url", f"ws://127.0.0.1:{self.port}"]
        run = lambda *arguments, **options: subprocess.run([RIVESYNC, *arguments, *url], check=True, capture_output=True,
                                                           timeout=TIMEOUT, **options)
        run("create", "long", "--file", "demo", "--artboard", "Lobby")
        try:
            writes = 1100  # more than the default historyBatches, fewer than this daemon's
            run("script", "-", input="".join(f"set long title t{i}\n" for i in range(writes)), text=True)
            seq = self.daemon.request({"type": "digest", "target": "long"})["seq"]
            self.assertEqual(seq, writes)
            self.open_inspector(self.a, "long")
            note = wait_for(lambda: self.a.find_element(By.ID, "history").get_attribute("data-from"), "the history to load")
            self.assertEqual(note, "1", self.a.find_element(By.ID, "history").text)
            self.assertIn(f"seq 1–{seq} from the daemon's history", self.a.find_element(By.ID, "history").text)
            items = self.a.find_elements(By.CSS_SELECTOR, "#timeline li.history")
            self.assertEqual(items[0].get_attribute("data-seq"), str(seq), "the newest first")
            self.assertIn(f'set title = "t{writes - 1}"', items[0].text)
        finally:
            run("delete", "long")
        self.open_inspector(self.a)
        self.collect_logs()

    def test_09d_the_quickstart_riv_is_shown_and_its_event_reaches_the_timeline(self):
        url = ["--url", f"ws://127.0.0.1:{self.port}"]
        self.open_inspector(self.a, "main")
        wait_for(lambda: self.editor(self.a, "title").get_attribute("value") == "Quickstart", "the authored title")
        self.assertIn("Layer 1", self.a.find_element(By.ID, "layers").text)
        subprocess.run([RIVESYNC, "fire", "main", "celebrate", *url], check=True, capture_output=True, timeout=TIMEOUT)
        wait_for(lambda: "events: celebrated" in self.a.find_element(By.ID, "timeline").text, "the event in the timeline")
        self.open_inspector(self.a)
        self.collect_logs()

    def test_10_no_console_errors(self):
        self.collect_logs()
        problems = []
        excused = []
        for name, at, entry in self.logs:
            if entry["level"] not in ("SEVERE", "ERROR"):
                continue
            message = entry["message"]
            if "rivesync-test-probe" in message:
                continue
            during_restart = self.restart_window and self.restart_window[0] <= at <= (self.restart_window[1] or at)
            refused = "ERR_CONNECTION_REFUSED" in message or "WebSocket connection to" in message
            unlisted = f"localhost:{self.port}" in message and "WebSocket" in message
            if (during_restart and refused) or unlisted:
                excused.append(f"{name}: {message}")
                continue  # the browser's own network log of connections the test cut on purpose
            problems.append(f"{name}: {message}")
        self.assertEqual(problems, [], "console errors in the pages")
        print(f"\n{len(self.logs)} browser log entries; network errors of the restart and the refused origin: {len(excused)}",
              *excused[:6], sep="\n  ", file=sys.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2, failfast=True)
