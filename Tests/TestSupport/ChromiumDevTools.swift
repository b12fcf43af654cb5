import Foundation

/// Headless Chromium (Debian's `chromium`) driven over its DevTools protocol, for tests of the
/// control page: open a URL, run JavaScript in it, take a screenshot.
public final class ChromiumDevTools {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    private let process = Process()
    private let profile: URL
    private let page: WebSocketTestClient
    private var nextID = 1

    public init(width: Int = 1280, height: Int = 900) throws {
        guard let executable = Self.executable else { throw Failure(description: "chromium is not installed") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("entrain-chromium-\(UUID().uuidString)")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                             "--remote-debugging-port=0", "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "about:blank"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/…"
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { usleep(50_000); continue }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "ws://127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port else {
            process.terminate()
            throw Failure(description: "chromium did not start its DevTools server: \(text.suffix(500))")
        }
        let targets = try JSONSerialization.jsonObject(with: Data(HTTPTestClient.get(port: port, path: "/json/list").body)) as? [[String: Any]] ?? []
        guard let target = targets.first(where: { $0["type"] as? String == "page" }),
              let url = target["webSocketDebuggerUrl"] as? String,
              let path = url.range(of: "/devtools/").map({ String(url[$0.lowerBound...]) }) else {
            throw Failure(description: "no page target in \(targets)")
        }
        page = try WebSocketTestClient(port: port, path: path, timeout: 30)
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: profile)
    }

    /// One DevTools call; events that arrive meanwhile are skipped.
    @discardableResult
    public func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        let request = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        try page.send(text: String(decoding: request, as: UTF8.self))
        while let message = try page.receive() {
            guard case .text(let text) = message,
                  let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  object["id"] as? Int == id else { continue }
            if let error = object["error"] { throw Failure(description: "\(method): \(error)") }
            return object["result"] as? [String: Any] ?? [:]
        }
        throw Failure(description: "\(method): no answer")
    }

    public func open(_ url: String) throws { try call("Page.navigate", ["url": url]) }

    /// The value of a JavaScript expression (promises awaited).
    public func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception)") }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until `expression` is true, or throws after `timeout`.
    public func wait(for expression: String, timeout: TimeInterval = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? evaluate(expression)) as? Bool == true { return }
            usleep(100_000)
        }
        throw Failure(description: "timed out waiting for \(expression)")
    }

    /// Show pages as a device of this size does (`mobile`: the viewport meta tag obeyed, touch
    /// input instead of a mouse).
    public func emulate(width: Int, height: Int, mobile: Bool) throws {
        try call("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile])
        try call("Emulation.setTouchEmulationEnabled", ["enabled": mobile, "maxTouchPoints": mobile ? 5 : 1])
    }

    /// Where the first element `selector` finds lies in the viewport (scrolled into view first).
    public func box(of selector: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [selector]), as: UTF8.self).dropFirst().dropLast()
        guard let box = try evaluate("""
            (() => { const e = document.querySelector(\(quoted)); if (!e) return null;
                     e.scrollIntoView({ block: "center" }); const r = e.getBoundingClientRect();
                     return [r.left, r.top, r.width, r.height]; })()
            """) as? [Double], box.count == 4 else { throw Failure(description: "no element \(selector)") }
        return (box[0], box[1], box[2], box[3])
    }

    /// A real pointer: the left mouse button pressed, moved with it held, released
    /// (`modifiers` 8 is Shift), as `Input.dispatchMouseEvent` delivers them to the page.
    public func mouse(_ type: String, x: Double, y: Double, modifiers: Int = 0) throws {
        try call("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": "left",
                                              "buttons": type == "mouseReleased" ? 0 : 1, "clickCount": 1, "modifiers": modifiers])
    }

    /// One finger: `touchStart`, `touchMove`, `touchEnd` (needs `emulate(…, mobile: true)`).
    public func touch(_ type: String, x: Double, y: Double) throws {
        try call("Input.dispatchTouchEvent", ["type": type, "touchPoints": type == "touchEnd" ? [] : [["x": x, "y": y]]])
    }

    /// A tap with a finger or a click with the mouse at the centre of `selector`, once nothing
    /// lies over that point (a toast, the dock, a layout still settling): a tap that would land on
    /// something else fails, naming what is there.
    public func press(_ selector: String, touch: Bool) throws {
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [selector]), as: UTF8.self).dropFirst().dropLast()
        // Where the element's centre is, once scrolled into view, and what lies there ("" when it is the element).
        let hitTest = """
            (() => { const e = document.querySelector(\(quoted)); if (!e) return "no such element";
                     e.scrollIntoView({ block: "center" }); const r = e.getBoundingClientRect();
                     const x = r.left + r.width / 2, y = r.top + r.height / 2, h = document.elementFromPoint(x, y);
                     return h && (h === e || e.contains(h)) ? "" : (h ? h.outerHTML.slice(0, 120) : "nothing") +
                       ` at ${x},${y}; scrollY ${window.scrollY} of ${document.documentElement.scrollHeight}, viewport ${innerHeight}`; })()
            """
        do { try wait(for: "\(hitTest) === ''", timeout: 5) } catch {
            throw Failure(description: "\(selector) is covered by \((try? evaluate(hitTest)) as? String ?? "?")")
        }
        let b = try box(of: selector)
        let x = b.x + b.width / 2, y = b.y + b.height / 2
        if touch {
            try self.touch("touchStart", x: x, y: y)
            try self.touch("touchEnd", x: x, y: y)
        } else {
            try mouse("mousePressed", x: x, y: y)
            try mouse("mouseReleased", x: x, y: y)
        }
    }

    public func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", ["format": "png"])
        guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else { throw Failure(description: "no screenshot") }
        return data
    }
}
