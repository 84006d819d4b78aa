import Foundation
import XCTest
@testable import PinGuardCore

/// RFC 3339 formatting and parsing in the proleptic Gregorian calendar, for every year 0000...9999.
final class RFC3339Tests: XCTestCase {
    func date(_ y: Int, _ m: Int, _ d: Int, _ seconds: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(CivilDate(year: y, month: m, day: d).daysSince1970 * 86_400 + seconds))
    }

    func testKnownDaysSince1970() {
        XCTAssertEqual(CivilDate(year: 1970, month: 1, day: 1).daysSince1970, 0)
        XCTAssertEqual(CivilDate(year: 2000, month: 3, day: 1).daysSince1970, 11_017)
        XCTAssertEqual(CivilDate(year: 1, month: 1, day: 1).daysSince1970, -719_162)
        XCTAssertEqual(CivilDate(year: 9999, month: 12, day: 31).daysSince1970, 2_932_896)
        XCTAssertEqual(CivilDate(year: 1582, month: 10, day: 10).daysSince1970, -141_432)
    }

    func testDaysRoundTripOverTheWholeRange() {
        var d = CivilDate(year: 0, month: 1, day: 1).daysSince1970
        let end = CivilDate(year: 9999, month: 12, day: 31).daysSince1970
        var previous = CivilDate(daysSince1970: d - 1)
        while d <= end {
            let c = CivilDate(daysSince1970: d)
            XCTAssertTrue(c.isValid)
            XCTAssertEqual(c.daysSince1970, d)
            if c.day == 1 { XCTAssertEqual(previous.day, CivilDate.daysIn(month: previous.month, year: previous.year)) }
            previous = c
            d += 1
        }
    }

    func testFormatsEarlyAndLateYearsInTheGregorianCalendar() {
        XCTAssertEqual(RFC3339.format(date(1, 1, 1)), "0001-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(date(1582, 10, 10, 3_661)), "1582-10-10T01:01:01Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 2_147_483_647)), "2038-01-19T03:14:07Z")
        XCTAssertEqual(RFC3339.format(date(9999, 12, 31, 86_399)), "9999-12-31T23:59:59Z")
    }

    func testOutOfRangeDatesAreClampedNotTrapped() {
        XCTAssertEqual(RFC3339.format(.distantFuture), "4001-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: 1e300)), "9999-12-31T23:59:59Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: -1e300)), "0000-01-01T00:00:00Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: .infinity)), "9999-12-31T23:59:59Z")
        XCTAssertEqual(RFC3339.format(Date(timeIntervalSince1970: .nan)), "1970-01-01T00:00:00Z")
    }

    func testParsesWhatItFormats() {
        for d in [date(1, 1, 1), date(1582, 10, 10, 5), date(1970, 1, 1), date(2038, 1, 19, 11_647), date(9999, 12, 31, 86_399)] {
            XCTAssertEqual(RFC3339.parse(RFC3339.format(d)), d)
        }
    }

    func testParsesOffsetsAndFractions() {
        XCTAssertEqual(RFC3339.parse("2027-06-30T14:00:00+02:00"), date(2027, 6, 30, 12 * 3600))
        XCTAssertEqual(RFC3339.parse("2027-06-30t12:00:00.250z")?.timeIntervalSince1970, date(2027, 6, 30, 12 * 3600).timeIntervalSince1970 + 0.25)
        XCTAssertEqual(RFC3339.parse("0001-01-01T00:30:00-00:30"), date(1, 1, 1, 3600))
    }

    func testRejectsMalformedTimestamps() {
        for bad in ["", "2027-02-30T00:00:00Z", "2027-13-01T00:00:00Z", "2027-06-30T24:00:00Z", "2027-06-30T12:00:00",
                    "2027-06-30T12:00:00+0200", "2027-06-30 12:00:00Z", "2027-06-30T12:00:00.Z", "+2027-06-30T12:00:00Z",
                    "2027-06-30T12:00:00Z ", String(repeating: "9", count: 1000)] {
            XCTAssertNil(RFC3339.parse(bad), bad)
        }
    }

    func testPinSetExpiryCoversTheWholeUTCDay() {
        XCTAssertEqual(PinSetExpiry.parse("0001-01-01"), date(1, 1, 2))
        XCTAssertEqual(PinSetExpiry.parse("1582-10-10"), date(1582, 10, 11))
        XCTAssertEqual(PinSetExpiry.parse("9999-12-31"), date(9999, 12, 31, 86_400))
        XCTAssertEqual(PinSetExpiry.parse("2024-02-29"), date(2024, 3, 1))
        XCTAssertNil(PinSetExpiry.parse("2023-02-29"))
        XCTAssertNil(PinSetExpiry.parse("1900-02-29"))
        XCTAssertNil(PinSetExpiry.parse("2027-1-011"))
    }
}
