"""axe-core (vendored, tests/browser/vendor/axe-core) injected into a page under test: the WCAG 2
A/AA rules and axe's best practices, as one list of violations a test asserts empty."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
# WCAG 2.0/2.1/2.2 A and AA, and axe's best practices (headings, landmarks, region).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def violations(page: Any) -> list[dict[str, Any]]:
    """Every axe violation of the page as it is now: rule id, impact, and up to three elements."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the debugging protocol: the page's Content-Security-Policy (script-src
        # 'self') rightly refuses an injected <script>, and stays as it is.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => {
            const result = await window.axe.run(document, {runOnly: {type: "tag", values: tags},
                                                           resultTypes: ["violations"]});
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
                nodes: v.nodes.slice(0, 3).map((n) => ({target: n.target.join(" "),
                                                        summary: n.failureSummary,
                                                        html: n.html.slice(0, 160)})),
            }));
        }""",
        TAGS,
    )
    return found


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}, {violation['count']}): {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {node['target']}: {node['html']}")
            lines.append(f"      {node['summary']}".replace("\n", " "))
    return "\n".join(lines)


_RING = r"""() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) {
        return {target: el.id || el.className || el.tagName, ratio: 0, ring: "none", behind: ""};
    }
    const rgb = (text) => (text.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
        const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    // What the ring is drawn on: the first ancestor with a background colour of its own.
    let node = el.parentElement;
    let behind = "rgb(255, 255, 255)";
    while (node) {
        const style = getComputedStyle(node);
        const colour = style.backgroundColor;
        const parts = rgb(colour);
        if (parts.length >= 3 && (parts.length < 4 || parts[3] > 0.5)) { behind = colour; break; }
        // A gradient (the felt, the dock): its first colour.
        const gradient = style.backgroundImage.match(/rgba?\([^)]*\)/);
        if (style.backgroundImage.includes("gradient") && gradient) { behind = gradient[0]; break; }
        node = node.parentElement;
    }
    const a = lum(rgb(style.outlineColor));
    const b = lum(rgb(behind));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return {target: el.id || el.getAttribute("data-action") || el.className || el.tagName,
            ratio, ring: style.outlineColor, behind};
}"""


def weak_focus_rings(page: Any, presses: int = 40) -> list[str]:
    """Tab through the page: every focused element's ring and the colour behind it, where their
    contrast is under 3:1 (WCAG 1.4.11) or there is no ring at all."""
    page.locator("body").focus()
    weak = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        ring = page.evaluate(_RING)
        if ring is not None and ring["ratio"] < 3:
            weak.append(f"{ring['target']}: {ring['ring']} on {ring['behind']} = {ring['ratio']:.2f}")
    return weak
