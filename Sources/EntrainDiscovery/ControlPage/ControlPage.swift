/// The browser control page's files, compiled into the binary (no build step, no network).
enum ControlPage {
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "index.html": ("text/html; charset=utf-8", PackageResources.index_html),
        "app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
        "style.css": ("text/css; charset=utf-8", PackageResources.style_css),
    ]
}
