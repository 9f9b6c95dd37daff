import SwitchyardTestSupport
import Testing

/// The test deadline scale and the condition wait every suite uses.
struct TestTimeoutsTests {
    /// A positive number scales; anything else counts as 1, so a typo never makes every wait end at once.
    @Test(arguments: [
        ("3", 3.0), ("0.5", 0.5), (" 2 ", 2.0), ("", 1.0), ("0", 1.0), ("-2", 1.0), ("abc", 1.0), ("inf", 1.0), ("nan", 1.0),
    ])
    func scaleFactor(text: String, expected: Double) {
        #expect(TestTimeouts.factor(text) == expected)
        #expect(TestTimeouts.factor(nil) == 1)
    }

    /// `eventually` returns as soon as the condition holds, and `false` when it never does.
    @Test func eventuallyWaitsForTheCondition() async {
        var checks = 0
        #expect(await eventually {
            checks += 1
            return checks == 3
        })
        #expect(checks == 3)
        #expect(await eventually(timeout: .milliseconds(20) / TestTimeouts.scale) { false } == false)
    }

    /// A deadline counts down from its scaled budget and reports when it has passed.
    @Test func deadlineCountsDown() {
        let deadline = TestDeadline(after: .seconds(30))
        #expect(deadline.budget == TestTimeouts.scaled(.seconds(30)))
        #expect(!deadline.hasPassed)
        #expect(deadline.remainingMilliseconds() == 1000)
        #expect(TestDeadline(after: .zero).hasPassed)
        #expect(TestDeadline(after: .zero).remainingMilliseconds() == 1)
    }
}
