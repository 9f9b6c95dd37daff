extension Duration {
    /// The duration in seconds as a `Double` (attosecond precision is more than any timer
    /// here needs).
    package var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, truncated toward zero (as the JetStream API wants
    /// them); overflows past about 292 years.
    package var nanosecondsValue: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds, rounded up so a timer never fires early; 0 for
    /// zero and negative durations, clamped to `Int32.max` for `epoll_wait`.
    package var timeoutMilliseconds: Int32 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int32.max }
        let rest = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds.partialValue + rest)
    }
}
