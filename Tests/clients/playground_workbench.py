"""The Playground's workbench in headless Chromium (selenium): documents in
tabs, the explorer building an operation, panes resized by their
splitters, the dark theme the system asks for, @defer and @stream read
part by part over multipart/mixed, the response's headers and size, the
result and the schema downloaded, a clear message for variables that are
not JSON, and a narrow window. Prints one line per check; the Swift test
compares them. Screenshots go to ARTIFACTS.

usage: playground_workbench.py PORT TOKEN USERNAME ARTIFACTS
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

port, token, username, artifacts = sys.argv[1:5]
base = f"http://127.0.0.1:{port}"
downloads = os.path.join(artifacts, "downloads")
os.makedirs(downloads, exist_ok=True)
for old in os.listdir(downloads):
    os.remove(os.path.join(downloads, old))

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900", "--disable-gpu"):
    options.add_argument(argument)
options.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
wait = WebDriverWait(driver, 20)


def screenshot(name):
    driver.save_screenshot(os.path.join(artifacts, name + ".png"))


def js(script, *arguments):
    return driver.execute_script(script, *arguments)


def editor_text():
    return js("return window.playground.queryEditor.getValue()")


def set_query(text):
    js("window.playground.queryEditor.setValue(arguments[0])", text)


def result():
    return js("return window.playground.resultView.getValue()")


def open_playground():
    driver.get(f"{base}/playground")
    wait.until(lambda d: js("return !!(window.playground && window.playground.queryEditor)"))


def downloaded(name):
    path = os.path.join(downloads, name)
    wait.until(lambda d: os.path.exists(path) and not os.path.exists(path + ".crdownload") and os.path.getsize(path) > 0)
    with open(path, encoding="utf-8") as file:
        return file.read()


try:
    # Signed in as the helper would leave it, and a fresh session.
    driver.get(f"{base}/playground")
    js("localStorage.clear(); localStorage.setItem('huddle.playground.token', arguments[0]);"
       "localStorage.setItem('huddle.playground.user', arguments[1])", token, username)
    open_playground()

    # Tabs: a second document, each keeping its own text; kept across a reload.
    set_query("query First { me { id } }")
    driver.find_element(By.ID, "new-tab").click()
    wait.until(lambda d: len(js("return window.playground.tabs")) == 2 and editor_text() == "")
    set_query("query Second { me { username } }")
    wait.until(lambda d: "Second" in driver.find_element(By.CSS_SELECTOR, "#document-tabs [aria-selected=true]").text)
    driver.find_elements(By.CSS_SELECTOR, "#document-tabs .tab-title")[0].click()
    wait.until(lambda d: editor_text() == "query First { me { id } }")
    print("tabs", [tab.text.replace("×", "").strip() for tab in driver.find_elements(By.CSS_SELECTOR, "#document-tabs .document-tab")])
    time.sleep(0.5)  # the session is kept 300 ms after the last change
    open_playground()
    print("tabs kept", [(tab["title"], tab["active"]) for tab in js("return window.playground.tabs")], editor_text())
    screenshot("tabs")
    driver.find_elements(By.CSS_SELECTOR, "#document-tabs .tab-close")[1].click()
    wait.until(lambda d: len(js("return window.playground.tabs")) == 1)
    print("closed", editor_text())

    # The explorer: ticking fields writes an operation in a tab of its own; arguments follow.
    driver.find_element(By.ID, "explorer-button").click()
    box = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "input[data-field='Query.me']")))
    box.click()
    wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "input[data-field='Query.me.username']"))).click()
    driver.find_element(By.CSS_SELECTOR, "input[data-field='Query.me.friends']").click()
    wait.until(lambda d: "friends" in editor_text())
    first = driver.find_element(By.ID, "explorer-Query.me.friends_first_")
    first.click()
    value = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "input[data-argument='Query.me.friends(first)']")))
    value.clear()
    value.send_keys("2")
    wait.until(lambda d: "friends(first: 2)" in editor_text())
    print("explorer", " ".join(editor_text().split()))
    print("explorer tab", [tab["title"] for tab in js("return window.playground.tabs") if tab["active"]])
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: '"username"' in result())
    print("explorer ran", json.loads(result())["data"]["me"]["username"] == username)
    screenshot("explorer")
    driver.find_element(By.ID, "explorer-button").click()

    # Resizing: the splitter between the editors and the result, by dragging and by keys; kept.
    editors = driver.find_element(By.ID, "editors")
    before = editors.rect["width"]
    ActionChains(driver).drag_and_drop_by_offset(driver.find_element(By.ID, "editors-splitter"), -150, 0).perform()
    after = editors.rect["width"]
    print("dragged", round((before - after) / 10) * 10)
    driver.find_element(By.ID, "editors-splitter").send_keys("\ue014")  # ArrowRight
    print("key", round(editors.rect["width"] - after))
    kept = editors.rect["width"]
    open_playground()
    print("width kept", abs(driver.find_element(By.ID, "editors").rect["width"] - kept) < 2)
    js("localStorage.removeItem('huddle.playground.layout')")

    # A response's size and headers; the result copied to a file.
    set_query("{ me { username } }")
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: '"username"' in result())
    status = driver.find_element(By.ID, "status").text
    print("status", status.split(" · ")[0], status.split(" · ")[2].endswith(" B"))
    driver.find_element(By.ID, "response-headers-button").click()
    headers = driver.find_element(By.ID, "response-headers").text.lower()
    print("headers", "content-type: application/graphql-response+json" in headers)
    driver.find_element(By.ID, "download-result").click()
    print("downloaded result", json.loads(downloaded("result.json")) == {"data": {"me": {"username": username}}})
    driver.find_element(By.ID, "response-headers-button").click()

    # @stream and @defer: each part listed as it comes, merged into the result.
    set_query("{ petTypes @stream(initialCount: 1) { type } me { id ... @defer(label: \"more\") { username } } }")
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: "parts" in driver.find_element(By.ID, "status").text)
    merged = json.loads(result())
    print("incremental", driver.find_element(By.ID, "events-title").text, int(driver.find_element(By.ID, "event-count").text) >= 2)
    print("merged", merged["data"]["me"]["username"] == username, len(merged["data"]["petTypes"]) > 1,
          sorted(merged["data"]["petTypes"][0].keys()))
    print("content type", "multipart/mixed" in js("return document.getElementById('response-headers').textContent"))
    screenshot("incremental")

    # Variables that are not JSON: said where, in words.
    set_query("query Q($n: Int) { me { friends(first: $n) { totalCount } } }")
    js("window.playground.variablesEditor.setValue('{\\n  \"n\": 2,\\n}')")
    driver.find_element(By.ID, "run").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "status"), "not valid JSON"))
    print("variables", driver.find_element(By.ID, "status").text)
    js("window.playground.variablesEditor.setValue('')")

    # The schema downloaded from the docs: the SDL as served, and the introspection JSON.
    driver.find_element(By.ID, "docs-button").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "docs-content"), "Root types"))
    driver.find_element(By.ID, "download-sdl").click()
    print("sdl", "type Query" in downloaded("schema.graphql"))
    driver.find_element(By.ID, "download-introspection").click()
    introspection = json.loads(downloaded("schema.json"))
    print("introspection", introspection["data"]["__schema"]["queryType"]["name"],
          any(d["name"] == "oneOf" for d in introspection["data"]["__schema"]["directives"]))

    # Narrow: at 800 px the toolbar keeps one row and the docs lie over the result, not over the editor's width.
    driver.set_window_size(800, 700)
    time.sleep(0.3)
    header = driver.find_element(By.TAG_NAME, "header")
    print("narrow header one row", header.rect["height"] < 60)
    print("narrow editor", driver.find_element(By.ID, "editors").rect["width"] >= 300)
    screenshot("narrow")
    driver.find_element(By.ID, "docs-button").click()
    driver.set_window_size(1400, 900)

    # Dark, when the system asks for it.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    time.sleep(0.2)
    print("dark", js("return getComputedStyle(document.body).backgroundColor"),
          js("return getComputedStyle(document.querySelector('#query-editor .CodeMirror')).backgroundColor"))
    screenshot("dark")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    print("light", js("return getComputedStyle(document.body).backgroundColor"))

    problems = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    print("console errors", problems)
except Exception:
    screenshot("workbench-failure")
    raise
finally:
    driver.quit()
