import EntrainControl
import Foundation
import TestSupport
import XCTest

/// The control page's show view, run in real headless Chromium through its DevTools protocol
/// (real mouse and touch input, no mocks) against the real client on a dummy JACK server: load
/// a preset, start the ambient engine, set the timer, drag a fader, press PANIC — each checked
/// on the JACK ports or over OSC — at a desktop size and at a phone's, where the layout itself is
/// measured from the DOM. With ENTRAIN_SCREENSHOTS=DIR, each size's show view is saved there
/// (control-page-desktop.png, control-page-phone.png: the pictures in docs/).
final class ControlPageLiveTests: LiveClientTestCase {
    func testTheShowViewRunsAShowAtDesktopSize() throws {
        try runShow(width: 1280, height: 800, touch: false, screenshot: "control-page-desktop.png")
    }

    func testTheShowViewRunsAShowOnAPhone() throws {
        try runShow(width: 390, height: 844, touch: true, screenshot: "control-page-phone.png") { browser in
            // The layout: a header of at most 15 % of the screen, nothing wider than the screen,
            // every target of the show view and the dock at least 44 px each way.
            let layout = try browser.evaluate("""
                (() => {
                  const targets = [...document.querySelectorAll('#view-show button, #view-show select, #view-show input, #view-show .fader, \
                #view-show .timeline, #dock button, nav .tab')].filter((e) => e.offsetParent !== null);
                  const sizes = targets.map((e) => { const r = e.getBoundingClientRect(); return [e.dataset.osc || e.id || e.textContent.trim(), r.width, r.height]; });
                  return { header: document.querySelector('header').getBoundingClientRect().height, inner: innerWidth,
                           scroll: document.documentElement.scrollWidth, count: sizes.length,
                           small: sizes.filter(([, w, h]) => w < 44 || h < 44).map((s) => s.join(' ')),
                           smallest: Math.min(...sizes.map(([, w, h]) => Math.min(w, h))),
                           withAddress: document.querySelectorAll('#view-show [data-osc]').length };
                })()
                """) as? [String: Any] ?? [:]
            let header = layout["header"] as? Double ?? 999, smallest = layout["smallest"] as? Double ?? 0
            print("phone layout: header \(header) px of 844, scrollWidth \(layout["scroll"] ?? "?") of \(layout["inner"] ?? "?"), "
                  + "\(layout["count"] ?? 0) targets, smallest \(smallest) px, \(layout["withAddress"] ?? 0) with data-osc")
            XCTAssertLessThanOrEqual(header, 0.15 * 844, "the header's height")
            XCTAssertLessThanOrEqual(layout["scroll"] as? Double ?? 999, layout["inner"] as? Double ?? 0, "no horizontal overflow")
            XCTAssertEqual(layout["small"] as? [String], [], "targets under 44 px")
            XCTAssertGreaterThan(layout["count"] as? Int ?? 0, 30)
        }
    }

    /// The show, through the page only; `measure` looks at the layout once the page is live.
    private func runShow(width: Int, height: Int, touch: Bool, screenshot: String,
                         measure: (ChromiumDevTools) throws -> Void = { _ in }) throws {
        guard ChromiumDevTools.executable != nil else { throw XCTSkip("chromium is not installed (scripts/install-deps.sh installs it)") }
        let data = try TemporaryFolder("entrain-page")
        defer { data.remove() }
        let recorder = try recorder(channels: 4, seconds: 0.5)
        let (client, port, osc) = try startWithOSC(environment: ["XDG_DATA_HOME": data.path], recorder: recorder)
        defer { stopClient(client) }
        try recorder.connect(["entrain:entrainment_L", "entrain:entrainment_R", "entrain:ambient_L", "entrain:haptic"])
        func carrier() -> Double? { if case .float(let f)? = osc.request("/entrain/carrier")?.arguments.first { Double(f) } else { nil } }
        /// The loudest frequency of entrainment_L now (its carrier: the binaural left ear).
        func heardCarrier() throws -> Double {
            let take = try recorder.record()
            return Spectrum(take[0], sampleRate: recorder.sampleRate).peak(from: 50, to: 1500).frequency
        }

        // A preset in the user's store, saved at 432 Hz; the engine then goes back to 200 Hz.
        osc.send("/entrain/carrier", [.float(432)])
        try waitFor("the carrier at 432 Hz") { carrier() == 432 }
        osc.send("/preset/save", [.string("page test")])
        try waitFor("the preset saved") { FileManager.default.fileExists(atPath: data.url.appendingPathComponent("entrain/presets/page test.json").path) }
        osc.send("/entrain/carrier", [.float(200)])
        try waitFor("the carrier back at 200 Hz") { carrier() == 200 }

        let browser = try ChromiumDevTools(width: width, height: height)
        try browser.emulate(width: width, height: height, mobile: touch)
        try browser.open("http://127.0.0.1:\(port)/ui/")
        try browser.wait(for: "document.body.dataset.ready === '1'")
        try browser.wait(for: "document.getElementById('state').textContent === 'running'")
        try measure(browser)
        // Arming the strobe is a person's decision the page does not offer: it can only disarm.
        XCTAssertEqual(try browser.evaluate(#"[...document.querySelectorAll('[data-osc="/led/arm"]')].map((e) => e.tagName + ':' + e.textContent).join('|')"#) as? String,
                       "BUTTON:Disarm")

        // Load the preset: its button (few presets) or the menu and Load (many).
        let chosen = try browser.evaluate("""
            (() => { if (document.querySelector('button[data-osc="/preset/load"][data-name="page test"]')) return 'button';
                     const s = document.querySelector('select[data-osc="/preset/load"]'); if (!s) return 'none';
                     s.value = 'page test'; return s.value === 'page test' ? 'menu' : 'missing'; })()
            """) as? String
        switch chosen {
        case "button": try browser.press(#"button[data-osc="/preset/load"][data-name="page test"]"#, touch: touch)
        case "menu": try browser.press(#".chooser[data-address="/preset/load"] button.command"#, touch: touch)
        default: return XCTFail("the preset is not offered on the show view (\(chosen ?? "nil"))")
        }
        try waitFor("the preset's carrier", timeout: 10) { carrier() == 432 }
        try waitFor("432 Hz heard on entrainment_L", timeout: 10) { abs(try heardCarrier() - 432) < 4 }

        // Start the ambient engine: playing, and sound on ambient_L.
        XCTAssertEqual(osc.request("/ambient/status")?.arguments.first, .int32(0), "silent before")
        try browser.press(#"#view-show button[data-osc="/ambient/play"]"#, touch: touch)
        try waitFor("the ambient engine playing") { osc.request("/ambient/status")?.arguments.first == .int32(1) }
        try waitFor("sound on ambient_L", timeout: 20) { try recorder.record()[2].map(abs).max() ?? 0 > 0.001 }
        try browser.wait(for: "document.getElementById('ambient-playing').textContent === 'playing'")

        // Set the timer to 10 minutes: the client counts down, and so does the page.
        try browser.press(#"button[data-osc="/timer/minutes"][data-minutes="10"]"#, touch: touch)
        try waitFor("the timer set") {
            guard case .float(let left)? = osc.request("/timer/minutes", reply: "/timer/remaining")?.arguments.first else { return false }
            return left > 590 && left <= 600
        }
        try browser.wait(for: "/^(10:00|9:[0-5][0-9]) left$/.test(document.getElementById('timer-left').textContent)")

        // Play a haptic pattern: the haptic port (silent until then: only its pattern source is on) moves.
        XCTAssertEqual(try recorder.record()[3].map(abs).max(), 0, "no haptic drive before the pattern")
        try browser.press(#"button[data-osc="/haptic/pattern"][data-name="heartbeat"]"#, touch: touch)
        try waitFor("the heartbeat pattern on the haptic port", timeout: 10) { try recorder.record()[3].map(abs).max() ?? 0 > 0.01 }


        // Drag the carrier's fader (its own view). Pressing it changes nothing.
        // A tab shows its view. Emulated touch in headless Chromium has once let a tap on a tab go
        // without a click (the view stayed; nothing covered the tab): tapped again once, and said.
        func open(_ view: String) throws {
            let shown = "!document.getElementById('view-\(view)').hidden"
            try browser.press(".tab[data-target=\"\(view)\"]", touch: touch)
            if (try? browser.wait(for: shown, timeout: 2)) == nil {
                print("control page: the tap on the \(view) tab gave no click; tapped again")
                try browser.press(".tab[data-target=\"\(view)\"]", touch: touch)
                try browser.wait(for: shown)
            }
        }
        try open("entrain")
        let fader = #"#view-entrain .fader[data-osc="/entrain/carrier"]"#
        XCTAssertEqual(try browser.evaluate("document.querySelector('\(fader)').dataset.curve") as? String, "logarithmic")
        let box = try browser.box(of: fader)
        var y = box.y + box.height / 2
        var x = box.x + box.width / 2
        func drag(to target: Double, shift: Bool = false) throws {
            // In steps, as a hand moves.
            let start = x
            for step in 1...5 {
                x = start + (target - start) * Double(step) / 5
                if touch { try browser.touch("touchMove", x: x, y: y) } else { try browser.mouse("mouseMoved", x: x, y: y, modifiers: shift ? 8 : 0) }
            }
        }
        func roundTrip(_ mark: String) throws {
            // The page's messages are handled in order: once its ping is answered, whatever it sent before is applied.
            // A fader sends at the next animation frame: the ping goes two frames later, behind it.
            try browser.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))).then(() => send('/ping', '\(mark)'))")
            try browser.wait(for: "document.body.dataset.pong === '\(mark)'")
        }
        if touch { try browser.touch("touchStart", x: x, y: y) } else { try browser.mouse("mousePressed", x: x, y: y) }
        try roundTrip("pressed")
        XCTAssertEqual(carrier(), 432, "pressing the fader's middle does not jump")
        // A tenth of the track's width: a tenth of the way along the logarithmic curve, 432 × 75^0.1.
        let distance = box.width / 10
        try drag(to: x + distance)
        try roundTrip("dragged")
        let expected = 432 * pow(1500.0 / 20, distance / box.width)
        let dragged = try XCTUnwrap(carrier())
        XCTAssertEqual(dragged, expected, accuracy: expected * 0.01, "moved along the curve (linear would give \(432 + 148))")
        try waitFor("\(Int(expected)) Hz heard", timeout: 10) { abs(try heardCarrier() - dragged) < 4 }
        // Fine: the same distance moves a tenth as far with Shift held, or with the finger pulled
        // 100 px below the fader (the pointer stays captured).
        if touch {
            y += 100
            try browser.touch("touchMove", x: x, y: y)
            try drag(to: x + distance)
            try browser.touch("touchEnd", x: x, y: y)
        } else {
            try browser.mouse("mouseReleased", x: x, y: y)
            try browser.mouse("mousePressed", x: x, y: y)
            try drag(to: x + distance, shift: true)
            try browser.mouse("mouseReleased", x: x, y: y)
        }
        try roundTrip("fine")
        let fine = dragged * pow(1500.0 / 20, distance / box.width / 10)
        XCTAssertEqual(try XCTUnwrap(carrier()), fine, accuracy: fine * 0.005, "a fine drag")
        // The exact value, typed.
        try browser.evaluate("""
            (() => { const f = document.querySelector('#view-entrain .exact[data-osc="/entrain/carrier"]');
                     f.value = '321'; f.dispatchEvent(new Event('change')); })()
            """)
        try waitFor("the typed carrier") { carrier() == 321 }

        // A session from the session directories, loaded and played: its name and progress on the page.
        try open("show")
        try browser.evaluate(#"(() => { const s = document.querySelector('select[data-osc="/session/load"]'); s.value = 'alpha-relaxation'; })()"#)
        try browser.press(#".chooser[data-address="/session/load"] button.command"#, touch: touch)
        try browser.press(#"#view-show button[data-osc="/session/play"]"#, touch: touch)
        try waitFor("the session playing") { osc.request("/session/status", reply: "/session/state")?.arguments.first == .string("playing") }
        guard case .string(let name)? = osc.request("/session/status", reply: "/session/name")?.arguments.first else { return XCTFail("no session name") }
        try browser.wait(for: "document.getElementById('session-name').textContent === \(String(decoding: try JSONSerialization.data(withJSONObject: [name]), as: UTF8.self)).at(0)")
        try browser.wait(for: "parseFloat(document.getElementById('session-bar').style.width) > 0")

        // The show view while all of this plays, for docs/.
        if let folder = ProcessInfo.processInfo.environment["ENTRAIN_SCREENSHOTS"] {
            try browser.evaluate("window.scrollTo(0, 0)")
            try browser.wait(for: "window.scrollY === 0")
            try browser.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent(screenshot))
        }

        // PANIC, from the dock: silence on all four recorded ports.
        XCTAssertGreaterThan(try recorder.record().joined().map(abs).max() ?? 0, 0.01, "playing before the panic")
        try browser.press("#panic", touch: touch)
        try waitFor("/status to report the panic") { osc.request("/status")?.arguments[safe: 8] == .int32(1) }
        try waitFor("silence after the panic") { recorder.level == 0 }
        let after = try recorder.record()
        XCTAssertEqual(after.joined().map(abs).max() ?? 1, 0, "silent after the page's PANIC")
        try browser.wait(for: "document.body.classList.contains('panicked')")
    }
}
