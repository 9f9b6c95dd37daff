/// Conversions between proleptic Gregorian dates in UTC and seconds since 1970, without
/// Foundation's calendars (slow on Linux and needless for UTC).
enum CivilDate {
    /// Days since 1970-01-01 of `year`-`month`-`day` (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Seconds since 1970 at `secondsOfDay` into the day `days` after 1970-01-01.
    static func seconds(days: Int, secondsOfDay: Double) -> Double {
        Double(days) * 86_400 + secondsOfDay
    }
}
