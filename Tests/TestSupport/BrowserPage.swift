import Foundation

/// A page open in headless Chromium, and what was found wrong on it: checks wait for a
/// JavaScript condition and record what never held, so one run reports every failure.
public final class BrowserPage {
    /// The browser showing the page.
    public let browser: HeadlessChromium
    /// An HTML expression whose first 3000 characters tell why a check failed.
    public let context: String
    /// What was found wrong so far.
    public private(set) var failures: [String] = []

    init(browser: HeadlessChromium, context: String) {
        self.browser = browser
        self.context = context
    }

    /// Waits for the JavaScript `expression` to hold; records `what` failed if it never does.
    public func check(_ what: String, _ expression: String) throws {
        if try !browser.wait(until: expression) {
            fail("\(what): \(expression) never held; \(String(describing: try? browser.evaluate("\(context).slice(0, 3000)")))")
        }
    }

    /// Records a failure.
    public func fail(_ message: String) {
        failures.append(message)
    }
}

extension HeadlessChromium {
    /// Opens `url` in headless Chromium (`width`×`height`; narrower than 500, a phone's screen
    /// emulated), runs `body` on the page on a thread
    /// of its own (the browser blocks), and returns what it found wrong; `context` is what a
    /// failed check shows of the page.
    public static func inBrowser(_ url: String, width: Int = 1280, height: Int = 1000, showing context: String,
                                 _ body: @escaping @Sendable (BrowserPage) throws -> Void) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    let browser = try HeadlessChromium(url: url, width: max(width, 500), height: height)
                    defer { browser.close() }
                    try browser.attach()
                    if width < 500 { try browser.emulate(width: width, height: height, mobile: true) }
                    let page = BrowserPage(browser: browser, context: context)
                    try body(page)
                    return page.failures
                })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
