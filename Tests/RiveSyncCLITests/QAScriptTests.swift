import Foundation
import XCTest

/// The script steps QA needs, against the real daemon: list, bind, advance (manual targets),
/// expect error, wait value … within, numeric tolerance, two named connections, stdin, TAP
/// and JUnit output.
final class QAScriptTests: QADaemonTestCase {
    func testTwoConnectionsSeeEachOthersWrites() throws {
        let script = """
            connect other
            set character mood 3
            other: wait value character mood 3 within 5s
            other: set theme name Shared
            wait value character @Theme/name Shared within 5s
            other: fire character yes
            expect trigger character yes 1

            """
        XCTAssertEqual(
            try rivesync("script", "-", stdin: script),
            .init(
                status: 0,
                stdout: """
                    ok 1: connect other
                    ok 2: set character mood 3
                    ok 3: other: wait value character mood 3 within 5s
                    ok 4: other: set theme name Shared
                    ok 5: wait value character @Theme/name Shared within 5s
                    ok 6: other: fire character yes
                    ok 7: expect trigger character yes 1
                    passed 7 steps

                    """, stderr: ""))
    }

    func testListBindAdvanceErrorsAndTolerance() throws {
        let script = """
            list add lobby players Player/Guest
            list insert lobby players 0 Player
            list swap lobby players 0 1
            expect value lobby players/1/name Guest
            list remove lobby players 0
            bind lobby Theme=Theme/Dark
            expect value lobby @Theme/name Dark
            set manual mood 2.5
            fire manual yes
            advance manual
            expect value manual mood 2.5
            expect trigger manual yes 1
            advance manual
            set character mood 1.004
            expect value character mood 1 ~0.01
            expect error invalid_enum_value set theme mode sepia
            expect error no_such_property fire character nope
            expect error index_out_of_range list remove lobby players 5
            expect error not_manual advance character

            """
        let result = try rivesync("script", "-", stdin: script)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix("passed 19 steps\n"), result.stdout)
    }

    func testUnmetExpectationsAndTheirStatus() throws {
        let cases: [(String, String)] = [
            ("set character mood 1\nexpect value character mood 1.5 ~0.1\n", "  expected: 1.5 ~0.1\n  actual:   1"),
            ("wait value character mood 9 within 300ms\n", "  expected: 9 within 0.3s\n  actual:   1"),
            ("expect error type_mismatch set character mood 2\n", "  expected: error type_mismatch\n  actual:   success"),
            ("set manual mood 7\n", "commands on manual target manual never applied (add 'advance TARGET')"),
        ]
        for (script, detail) in cases {
            let result = try rivesync("script", "-", stdin: script)
            XCTAssertEqual(result.status, 2, "\(script): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(detail), "\(script): \(result.stderr)")
        }
        let syntax = try rivesync("script", "-", stdin: "other: set character mood 1\n")
        XCTAssertEqual(
            syntax, .init(status: 64, stdout: "", stderr: "rivesync: stdin:1: no connection 'other' (declare it with 'connect other')\n"))
    }

    func testTAPAndJUnit() throws {
        let script = "set character mood 4\nexpect value character mood 5\nfire character yes\n"
        XCTAssertEqual(
            try rivesync("script", "-", "--format", "tap", stdin: script),
            .init(
                status: 2,
                stdout: """
                    TAP version 13
                    1..3
                    ok 1 - 1: set character mood 4
                    not ok 2 - 2: expect value character mood 5
                      ---
                      code: expectation_failed
                      exit: 2
                      message: |
                        stdin:2: expect value character mood 5
                          expected: 5
                          actual:   4
                      ...
                    ok 3 - 3: fire character yes # SKIP after a failure

                    """,
                stderr: "rivesync: stdin:2: expect value character mood 5\n  expected: 5\n  actual:   4\n"))
        let junit = try rivesync("script", "-", "--format", "junit", stdin: script)
        XCTAssertEqual(junit.status, 2)
        XCTAssertTrue(
            junit.stdout.hasPrefix(
                #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<testsuite name="stdin" tests="3" failures="1" skipped="1">"#),
            junit.stdout)
        XCTAssertTrue(junit.stdout.contains(#"name="2: expect value character mood 5" time=""#), junit.stdout)
        XCTAssertTrue(
            junit.stdout.contains(#"<failure type="expectation_failed" message="stdin:2: expect value character mood 5">"#), junit.stdout)
        XCTAssertTrue(
            junit.stdout.contains(#"<testcase classname="stdin" name="3: fire character yes"><skipped/></testcase>"#), junit.stdout)
        XCTAssertTrue(junit.stdout.hasSuffix("</testsuite>\n"), junit.stdout)
        let json = try rivesync("script", "-", "--json", stdin: script)
        XCTAssertEqual(json.status, 2)
        let lines = json.stdout.split(separator: "\n").map {
            $0.replacingOccurrences(of: #","seconds":[0-9.e-]+"#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(
            lines,
            [
                #"{"line":1,"step":"set character mood 4","status":"ok"}"#,
                #"{"line":2,"step":"expect value character mood 5","status":"failed","code":"expectation_failed","exit":2,"message":"stdin:2: expect value character mood 5\n  expected: 5\n  actual:   4"}"#,
                #"{"line":3,"step":"fire character yes","status":"skipped"}"#, #"{"passed":1,"failed":1,"skipped":1}"#,
            ], json.stdout)
        XCTAssertTrue(json.stderr.hasPrefix(#"{"error":{"code":"expectation_failed","exit":2,"#), json.stderr)
    }
}
