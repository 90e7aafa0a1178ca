"""Plays shown sliding: the checkers that moved slide from their points to where
they land, and the board once they have is the board drawn before; with reduced motion they
land at once."""

from __future__ import annotations

from typing import Any

from browser_support import SEED, fetch_state, match_url, place, post, settled, wait_version

# Every animation the page starts, where it starts it: the place of the shape that slides and
# its first and last frames (the page's own module calls Element.animate).
RECORD_SLIDES = """() => {
  window.slid = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.slid.push({
      place: this.closest('[data-place]')?.dataset.place,
      first: frames[0].transform, last: frames[frames.length - 1].transform,
    });
    return animate.call(this, frames, options);
  };
}"""


def board_counts(page: Any) -> dict[str, str]:
    counted: dict[str, str] = page.eval_on_selector_all(
        "#board [data-place]",
        "nodes => Object.fromEntries(nodes.map(n => [n.dataset.place, n.dataset.count]))",
    )
    return counted


def expected_counts(state: dict[str, Any]) -> dict[str, str]:
    board = state["board"]
    counts = {f"p{i + 1}": str(point["count"]) for i, point in enumerate(board["points"])}
    for seat in (0, 1):
        counts[f"bar{seat}"] = str(board["bar"][seat])
        counts[f"off{seat}"] = str(board["off"][seat])
    return counts


def landed(page: Any) -> None:
    """Wait until no checker slides any more."""
    page.wait_for_function("() => !document.querySelector('#board').dataset.sliding")


def opening(server: str, page: Any) -> str:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})  # black wins it, 5 against 4
    wait_version(page, 1)
    page.evaluate(RECORD_SLIDES)
    return match_id


def test_a_step_slides_to_where_it_lands(server: str, page: Any) -> None:
    match_id = opening(server, page)
    # Black's 13 to its 8, sent from elsewhere (as the opponent's step comes online).
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "step", "from": 13, "to": 8, "version": 1})
    wait_version(page, 2)
    slid = page.evaluate("window.slid")
    assert len(slid) == 1
    assert slid[0]["place"] == place(8, 1)
    # From black's 13 (the viewer's 12, on the left) to the viewer's 17: leftward, upward.
    assert slid[0]["first"].startswith("translate(-160px, ")
    assert slid[0]["last"] == "translate(0px, 0px)"
    assert page.get_attribute("#board", "data-slides") == "1"
    landed(page)
    assert board_counts(page) == expected_counts(fetch_state(server, match_id, 0))
    # The second step and the confirmation: the step slides; the play, already seen, not again.
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "step", "from": 24, "to": 20, "version": 2})
    wait_version(page, 3)
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "confirm", "version": 3})
    wait_version(page, 4)
    assert [each["place"] for each in page.evaluate("window.slid")] == [place(8, 1), place(20, 1)]
    landed(page)
    assert board_counts(page) == expected_counts(fetch_state(server, match_id, 0))


def test_the_computers_play_slides(server: str, page: Any) -> None:
    options = {"opponent": "computer", "level": "beginner", "seed": 5}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.evaluate(RECORD_SLIDES)
    state = fetch_state(server, match_id)
    # Seat 0 plays through the API (its steps slide too) until the computer has played.
    for _ in range(40):
        played = [
            entry for entry in (state["record"][-1]["entries"] if state["record"] else [])
            if entry["kind"] == "play" and entry["seat"] == 1 and entry.get("steps")
        ]
        if played:
            break
        actions = state["actions"][0]
        if "roll" in actions:
            body: dict[str, Any] = {"action": "roll"}
        elif "step" in actions:
            step = state["steps"][0]
            body = {"action": "step", "from": step["from"], "to": step["to"]}
        else:
            body = {"action": "confirm"}
        post(server, f"/api/matches/{match_id}/actions",
             {**body, "seat": 0, "version": state["version"]})
        state = settled(server, match_id)
        wait_version(page, state["version"])
    else:
        raise AssertionError("the computer did not play")
    play = played[-1]
    # The computer's checkers slid to where its play took them (on seat 0's board).
    ends = {place(step["to"], 1) for step in play["steps"]}
    slid = {each["place"] for each in page.evaluate("window.slid")}
    assert ends & slid
    landed(page)
    assert board_counts(page) == expected_counts(fetch_state(server, match_id, 0))


def test_reduced_motion_makes_them_jump(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 900, "height": 1000}, reduced_motion="reduce")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match_id = opening(server, page)
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "step", "from": 13, "to": 8, "version": 1})
    wait_version(page, 2)
    assert page.evaluate("window.slid") == []
    assert page.get_attribute("#board", "data-slides") is None
    assert board_counts(page) == expected_counts(fetch_state(server, match_id, 0))
    context.close()
    assert errors == [], errors
