/// Ties an iterator's lifetime to its operator: releasing the iterator stops the operator.
@usableFromInline final class OperatorDriverHandle<Machine: Sendable, Element: Sendable, Failure: Error> {
    @usableFromInline let driver: OperatorDriver<Machine, Element, Failure>

    @inlinable init(_ driver: OperatorDriver<Machine, Element, Failure>) {
        self.driver = driver
    }

    deinit {
        driver.cancel()
    }
}
