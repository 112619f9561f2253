"""The Playground in headless Chromium (selenium, Debian's chromium and
chromium-driver) against a running `huddle serve`: typing with completion,
a diagnostic for a misspelt field, signing in, running a query, a
subscription event caused by another client's mutation, the docs explorer,
prettify, the operation picker, history and a shared URL. Prints one line
per check; the Swift test compares them. Screenshots go to ARTIFACTS.

usage: playground_browser.py PORT USERNAME PASSWORD SENDER_TOKEN USER_ID ARTIFACTS
"""
import json
import os
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

port, username, password, sender_token, user_id, artifacts = sys.argv[1:7]
base = f"http://127.0.0.1:{port}"
os.makedirs(artifacts, exist_ok=True)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900", "--disable-gpu"):
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 15)


def screenshot(name):
    driver.save_screenshot(os.path.join(artifacts, name + ".png"))


def editor_text():
    return driver.execute_script("return window.playground.queryEditor.getValue()")


def type_query(text):
    """Empties the query editor and types `text` key by key, as a person does."""
    driver.find_element(By.CSS_SELECTOR, "#query-editor .CodeMirror").click()
    editor = driver.switch_to.active_element
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    editor.send_keys(text)
    return editor


def result_json():
    wait.until(lambda d: d.execute_script("return window.playground.resultView.getValue()") != "")
    return json.loads(driver.execute_script("return window.playground.resultView.getValue()"))


def post(query, variables, token):
    request = urllib.request.Request(
        f"{base}/graphql",
        data=json.dumps({"query": query, "variables": variables}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


try:
    driver.get(f"{base}/playground")
    wait.until(lambda d: d.execute_script("return !!(window.playground && window.playground.queryEditor)"))
    print("loaded", driver.title)

    # Completion: typing a field's first letters offers the field; Enter takes it.
    # (The closing braces come from auto-closing brackets.)
    editor = type_query("{ me { user")
    hints = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".CodeMirror-hints")))
    wait.until(lambda d: "username" in hints.text)
    screenshot("completion")
    print("offered", [h.text.split("\n")[1] for h in hints.find_elements(By.CSS_SELECTOR, "li")][:3])
    editor.send_keys(Keys.ENTER)
    wait.until(lambda d: "username" in editor_text())
    print("completed", " ".join(editor_text().split()))

    # A diagnostic from the server's validation as you type.
    type_query("{ me { nmae")
    mark = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".CodeMirror-lint-mark-error")))
    print("marked", mark.text)
    marker = driver.find_element(By.CSS_SELECTOR, ".CodeMirror-lint-marker-error")
    ActionChains = webdriver.ActionChains
    ActionChains(driver).move_to_element(marker).perform()
    tooltip = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".CodeMirror-lint-tooltip")))
    print("diagnostic", tooltip.text)
    screenshot("diagnostic")

    # Sign in: the helper keeps the token and sends it.
    driver.find_element(By.ID, "sign-in-button").click()
    for field, value in (("sign-in-username", username), ("sign-in-password", password)):
        element = driver.find_element(By.ID, field)
        element.click()
        element.send_keys(value)
        wait.until(lambda d: element.get_attribute("value") == value)
    driver.find_element(By.ID, "sign-in-submit").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "account"), username))
    print("account", driver.find_element(By.ID, "account").text)

    # Run a query and read the result.
    type_query("query Me { me { username friendCount")
    driver.find_element(By.ID, "run").click()
    result = result_json()
    print("result", json.dumps(result, sort_keys=True))
    print("status", driver.find_element(By.ID, "status").text.split(" ")[0])
    screenshot("query")

    # Prettify through the engine's printer.
    type_query("query Q($n:Int){me{friends(first:$n){totalCount")
    driver.find_element(By.ID, "prettify").click()
    wait.until(lambda d: editor_text().startswith("query Q($n: Int) {"))
    print("prettified", json.dumps(editor_text()))

    # The operation picker for a document with several operations.
    type_query("query First { me { id } }\nquery Second { me { username } }")
    wait.until(EC.visibility_of_element_located((By.ID, "operation-picker")))
    picker = driver.find_element(By.ID, "operation")
    print("operations", [o.text for o in picker.find_elements(By.TAG_NAME, "option")])
    driver.execute_script("arguments[0].value = 'Second'", picker)
    driver.find_element(By.ID, "run").click()
    # The result before this one also has a username (and friendCount): wait for this one's.
    wait.until(lambda d: "username" in d.execute_script("return window.playground.resultView.getValue()")
               and '"id"' not in d.execute_script("return window.playground.resultView.getValue()")
               and "friendCount" not in d.execute_script("return window.playground.resultView.getValue()"))
    print("picked", json.dumps(result_json(), sort_keys=True))

    # A subscription: an event arrives when another client sends a friend request.
    type_query("subscription { friendRequestReceived { from { username } to { username } }")
    driver.find_element(By.ID, "run").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "status"), "Subscribed"))
    time.sleep(0.5)  # the subscribe message follows the ack on the socket
    sent = post("mutation($id: ID!) { sendFriendRequest(userId: $id) { id } }", {"id": user_id}, sender_token)
    print("sent", "errors" not in sent)
    event = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#event-list .event pre")))
    print("event", json.dumps(json.loads(event.text), sort_keys=True))
    print("events", driver.find_element(By.ID, "event-count").text)
    screenshot("subscription")
    driver.find_element(By.ID, "stop").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "status"), "stopped"))

    # The docs explorer, from introspection.
    driver.find_element(By.ID, "docs-button").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "docs-content"), "Root types"))
    driver.find_element(By.CSS_SELECTOR, "#docs-content .root-type a").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#docs-content .field-name")))
    fields = [f.text for f in driver.find_elements(By.CSS_SELECTOR, "#docs-content .field-name")]
    print("query fields include me", "me" in fields)
    search = driver.find_element(By.ID, "docs-search")
    search.send_keys("friendCount")
    wait.until(EC.text_to_be_present_in_element((By.ID, "docs-content"), "User.friendCount"))
    print("search", "User.friendCount: Int!" in [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#docs-content li")])
    screenshot("docs")

    # History keeps what ran.
    driver.find_element(By.ID, "history-button").click()
    entries = driver.find_elements(By.CSS_SELECTOR, "#history-list .history-entry")
    print("history", len(entries) >= 3)
    driver.find_element(By.ID, "history-close").click()

    # A shared URL opens with its document and variables.
    type_query("query Shared($first: Int) { me { friends(first: $first) { totalCount } } }")
    driver.find_element(By.CSS_SELECTOR, ".tabs button[data-tab=variables]").click()
    driver.execute_script("window.playground.variablesEditor.setValue('{\"first\": 2}')")
    driver.find_element(By.ID, "share").click()
    url = driver.find_element(By.ID, "share-url").get_attribute("value")
    driver.get("about:blank")
    driver.get(url)
    wait.until(lambda d: d.execute_script("return !!(window.playground && window.playground.queryEditor)"))
    print("shared", " ".join(editor_text().split()), driver.execute_script("return window.playground.variablesEditor.getValue()"))

    # A browser's visit to /graphql lands in the Playground with its query.
    driver.get(f"{base}/graphql?query=%7B%20me%20%7B%20id%20%7D%20%7D")
    wait.until(lambda d: d.execute_script("return !!(window.playground && window.playground.queryEditor)"))
    print("redirected", driver.current_url.split("?")[0].removeprefix(base), editor_text())

    # An overview for the docs (docs/playground.png is a copy of it).
    driver.execute_script("""window.playground.queryEditor.setValue(
        'query MyProfile($first: Int = 3) {\\n  me {\\n    username\\n    friendCount\\n'
        + '    friends(first: $first) {\\n      totalCount\\n      edges { node { username } }\\n    }\\n  }\\n}\\n')""")
    driver.find_element(By.ID, "run").click()
    result_json()
    driver.find_element(By.ID, "docs-button").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#docs-content .root-type a")))
    driver.find_element(By.ID, "docs-search").send_keys("User")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#docs-content .search-results a")))
    next(a for a in driver.find_elements(By.CSS_SELECTOR, "#docs-content .search-results a") if a.text == "User").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#docs-content .field-name")))
    screenshot("overview")

    # A picture picked for an Upload variable is sent as a multipart request.
    picture = os.path.join(artifacts, "upload.png")
    from PIL import Image
    Image.new("RGB", (320, 240), (40, 160, 90)).save(picture, "PNG")
    type_query("mutation Avatar($f: Upload!) { setAvatar(file: $f) { avatar(size: THUMBNAIL) } }")
    driver.find_element(By.CSS_SELECTOR, ".tabs button[data-tab=files]").click()
    chooser = wait.until(EC.presence_of_element_located((By.ID, "file-f")))
    chooser.send_keys(picture)
    driver.find_element(By.ID, "run").click()
    wait.until(lambda d: "setAvatar" in d.execute_script("return window.playground.resultView.getValue()"))
    avatar = result_json()["data"]["setAvatar"]["avatar"]
    print("uploaded", avatar.startswith("/media/") and avatar.endswith("/thumbnail"))
    screenshot("upload")

    # Nothing the page did broke its Content-Security-Policy or threw.
    problems = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    print("console errors", problems)
except Exception:
    screenshot("failure")
    raise
finally:
    driver.quit()
