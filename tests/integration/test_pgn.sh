#!/usr/bin/env bash
# test_pgn.sh -- PGN records (docs/pgn.md): `citadel pgn check` on sound and
# broken records, and the strict reader of the tests (tests/pgn/strict_pgn.py)
# refusing records that break the export format, one rule at a time.
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
at_exit 'rm -rf "$work"'
strict() { python3 tests/pgn/strict_pgn.py "$@"; }

# Two sound games from the match runner; the first on its own.
timeout 120 "$CITADEL" match greedy random --games 2 --nodes 50 --move-limit 12 --seed 3 \
    --tc 60+1 --records "$work/two.pgn" --quiet >/dev/null 2>&1
expect "the match writes two records" 2 "$(grep -c '^\[Event ' "$work/two.pgn")"
awk '/^\[Event / { n++ } n == 1' "$work/two.pgn" >"$work/one.pgn"
one=$work/one.pgn
expect "the first record ends by the board" 1 "$(grep -c '^\[Reason "move-limit"\]' "$one")"
result=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$one")

out=$("$CITADEL" pgn check "$work/two.pgn")
expect "pgn check: sound records exit 0" 0 "$?"
expect_line "pgn check: one line per game" \
    "game 1 (line 1): ok: rampart, 24 plies, $result, move-limit" "$out"
expect_line "pgn check: a summary" "2 games: 2 ok, 0 with errors" "$out"
expect "the strict reader reads them" "$work/two.pgn: 2 games" "$(strict "$work/two.pgn")"

# pgn export: a JSON object a line (as the record says, replayed), and the
# UCI command that replays each game, which `citadel uci` takes to the
# final position the JSON names
"$CITADEL" pgn export --format json "$work/two.pgn" >"$work/two.json"
expect "pgn export --format json: exit 0" 0 "$?"
expect "... a line per game: variant, plies, result, the end" "rampart 24 $result True move-limit" \
    "$(python3 -c 'import json,sys
g = json.loads(open(sys.argv[1]).readline())
print(g["variant"], len(g["moves"]), g["result"], g["over"], g["reason"], g["tags"]["Result"] == g["result"] or "tags!")' \
        "$work/two.json" | cut -d" " -f1-5)"
expect "... two lines" 2 "$(wc -l <"$work/two.json")"
"$CITADEL" pgn export --format uci "$work/two.pgn" >"$work/two.uci"
expect "pgn export --format uci: a position command a game" 2 "$(grep -c '^position fen .* moves ' "$work/two.uci")"
replayed=$(printf 'setoption name UCI_Variant value rampart\n%s\nd\nquit\n' "$(head -n 1 "$work/two.uci")" |
           "$CITADEL" uci | sed -n 's/^Fen: //p')
expect "... which citadel uci replays to the JSON's final position" \
    "$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["final"])' "$work/two.json")" \
    "$replayed"
printf '[Event "x"]\n\n1. a1a2 *\n' >"$work/bad.pgn"
"$CITADEL" pgn export --format json "$work/bad.pgn" >/dev/null 2>"$work/bad.err"
expect "pgn export: a record that does not read is named, exit 1" "1 1" "$? $(grep -c 'game 1' "$work/bad.err")"
"$CITADEL" pgn export --format xml "$work/two.pgn" >/dev/null 2>&1
expect "pgn export: an unknown format is a usage error" 2 "$?"

# Keeps & Moats's seat match (match_seats.c) writes the same format: the four
# players, the draw at the move limit as Outcome, the start with its settings
# as FEN, and every ply (the opening's two included) replayed by the check.
timeout 120 "$CITADEL" match random random --variant keeps-moats --games 2 --openings-plies 2 \
    --move-limit 10 --seed 5 --records "$work/km.pgn" --quiet >/dev/null 2>&1
expect "the seat match writes two records" 2 "$(grep -c '^\[Event ' "$work/km.pgn")"
expect "a seat match's record names the draw" 2 "$(grep -c '^\[Outcome "draw"\]' "$work/km.pgn")"
out=$("$CITADEL" pgn check "$work/km.pgn")
expect_line "pgn check reads the seat match's records" "2 games: 2 ok, 0 with errors" "$out"
expect_line "pgn check replays a seat match's every ply" \
    "game 1 (line 1): ok: keeps-moats, 40 plies, *, move-limit" "$out"
expect "the strict reader reads the seat match's records" "$work/km.pgn: 2 games" \
    "$(strict "$work/km.pgn")"

# --- citadel pgn check on broken records -------------------------------------
# pgn_bad NAME WANT_LINE_PATTERN SED_SCRIPT: the first record, changed by
# the sed script, fails the check with exit status 1 and a line matching
# the pattern (an extended regular expression).
pgn_bad() {
    local name=$1 want=$2 script=$3 out rc
    sed -E "$script" "$one" >"$work/bad.pgn"
    if cmp -s "$one" "$work/bad.pgn"; then
        fail "pgn check: $name" "the change did nothing"
        return
    fi
    out=$("$CITADEL" pgn check "$work/bad.pgn" 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE -- "$want" &&
        printf '%s\n' "$out" | grep -qx '1 game: 0 ok, 1 with errors'; then
        pass "pgn check: $name"
    else
        fail "pgn check: $name" "exit $rc, want /$want/:
$out"
    fi
}
other=$( [ "$result" = "1-0" ] && echo "0-1" || echo "1-0")
first_move=$(awk '/^1\. / { print $2; exit }' "$one")
illegal=${first_move:0:2}${first_move:0:2}
pgn_bad "an illegal move, by its line" "^game 1 \(line 1\): line 18: move 1 '$illegal': illegal" \
    "s/^1\. $first_move /1. $illegal /"
pgn_bad "a result the final position contradicts" \
    "the result is $other, but the final position gives $result \(move-limit\)" \
    "s|^\[Result \"$result\"\]|[Result \"$other\"]|; s| $result\$| $other|"
pgn_bad "an unfinished result for a finished game" "the result is \*, but the final position gives" \
    "s|^\[Result \"$result\"\]|[Result \"*\"]|; s| $result\$| *|"
pgn_bad "the Result tag against the result token" \
    "line [0-9]+: the result token $result differs from the Result tag \"$other\"" \
    "s|^\[Result \"$result\"\]|[Result \"$other\"]|"
pgn_bad "no Variant tag" "no Variant tag" '/^\[Variant /d'
pgn_bad "an unknown variant" 'unknown variant "chess"' 's/^\[Variant "rampart"\]/[Variant "chess"]/'
pgn_bad "a missing roster tag" "no Round tag \(the Seven Tag Roster" '/^\[Round /d'
pgn_bad "a FEN without SetUp" 'a FEN tag without SetUp "1"' \
    's|^\[Variant "rampart"\]|&\n[FEN "1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1"]|'
pgn_bad "a FEN the engine cannot read" "FEN: " \
    's|^\[Variant "rampart"\]|&\n[SetUp "1"]\n[FEN "1qqq1/9/1kkk1 b 1"]|'
pgn_bad "a bad setting" 'tag MoveLimit: "lots" is not a whole number' 's/^\[MoveLimit "12"\]/[MoveLimit "lots"]/'
pgn_bad "a word that is not PGN's Termination" 'Termination "resigned" is none of PGN' \
    's/^\[Termination "normal"\]/[Termination "resigned"]/'
pgn_bad "a comment never closed" "line [0-9]+: a comment \('\{'\) is never closed" 's/\]\}/]/g'
pgn_bad "a tag value with a bad escape" "a backslash escapes only" 's/^\[Site "\?"\]/[Site "a\\n"]/'
pgn_bad "no result token" "has no result token" "s| $result\$||"
pgn_bad "a move longer than any" "a move of more than 31 characters" \
    "s/^1\. $first_move /1. ${first_move}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa /"

# A broken game in the middle: the games after it are still read.
{ cat "$one"; sed -E "s/^1\. $first_move /1. $illegal /" "$one"; sed '/^\[Variant /d' "$one"; cat "$one"; } \
    >"$work/four.pgn"
out=$("$CITADEL" pgn check "$work/four.pgn" 2>&1)
expect "pgn check: a broken game does not stop the reading" \
    "1 4 games: 2 ok, 2 with errors" "$? $(printf '%s\n' "$out" | tail -n 1)"
expect_line "pgn check: the game after a broken one is read from its line" \
    "game 4 (line $((3 * $(wc -l <"$one")))): ok: rampart, 24 plies, $result, move-limit" "$out"
expect_line "pgn check: the broken games by their lines" \
    "game 3 (line $((2 * $(wc -l <"$one") + 1))): line $((2 * $(wc -l <"$one") + 1)): no Variant tag (\`citadel variants\` lists them)" "$out"

# Four sides (docs/pgn.md): Result "*", the outcome in Outcome.
km_start='bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/wC w anarchy gained wrbu -,-,-,- - 1 200'
km() {  # km RESULT OUTCOME_TAG_LINE MOVES
    printf '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "a"]\n[Black "c"]\n'
    printf '[Result "%s"]\n[Red "b"]\n[Blue "d"]\n[Variant "keeps-moats"]\n%b' "$1" "$2"
    printf '[SetUp "1"]\n[FEN "%s"]\n\n%s %s\n\n' "$km_start" "$3" "$1"
}
km '*' '' '1. resign:w resign:r resign:b' >"$work/km.pgn"
out=$("$CITADEL" pgn check "$work/km.pgn" 2>&1)
expect "pgn check: a finished four-sided game needs its Outcome" 1 "$?"
expect "pgn check: ... and says so" 1 "$(printf '%s\n' "$out" | grep -c 'the game is over (blue, kings) but has no Outcome tag')"
km '*' '[Outcome "blue"]\n' '1. resign:w resign:r resign:b' >"$work/km.pgn"
out=$("$CITADEL" pgn check "$work/km.pgn" 2>&1)
expect "pgn check: four sides, the right Outcome" "0 game 1 (line 1): ok: keeps-moats, 3 plies, *, kings" \
    "$? $(printf '%s\n' "$out" | head -n 1)"
expect "the strict reader reads a four-sided record" "$work/km.pgn: 1 games" "$(strict "$work/km.pgn")"
km '*' '[Outcome "red"]\n' '1. resign:w resign:r resign:b' >"$work/km.pgn"
out=$("$CITADEL" pgn check "$work/km.pgn" 2>&1)
expect "pgn check: four sides, the wrong Outcome" 1 \
    "$(printf '%s\n' "$out" | grep -c 'Outcome "red", but the final position gives blue (kings)')"
km '1-0' '' '1. resign:w' >"$work/km.pgn"
out=$("$CITADEL" pgn check "$work/km.pgn" 2>&1)
expect "pgn check: four sides have no 1-0" 1 "$(printf '%s\n' "$out" | grep -c 'a game of 4 sides has the result "\*"')"

: >"$work/empty.pgn"
"$CITADEL" pgn check "$work/empty.pgn" >/dev/null 2>&1
expect "pgn check: a file with no game exits 1" 1 "$?"
"$CITADEL" pgn check "$work/nothing-here.pgn" >/dev/null 2>&1
expect "pgn check: a file that is not there exits 1" 1 "$?"
"$CITADEL" pgn >/dev/null 2>&1
expect "pgn without check exits 2" 2 "$?"
"$CITADEL" pgn check >/dev/null 2>&1
expect "pgn check without a file exits 2" 2 "$?"

# --- the strict reader refuses what breaks the export format ----------------
# strict_bad NAME WANT_PATTERN SED_SCRIPT: as pgn_bad, for the strict reader.
strict_bad() {
    local name=$1 want=$2 script=$3 out rc
    sed -E "$script" "$one" >"$work/bad.pgn"
    if cmp -s "$one" "$work/bad.pgn"; then
        fail "strict reader: $name" "the change did nothing"
        return
    fi
    out=$(strict "$work/bad.pgn" 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE -- "$want"; then
        pass "strict reader: $name"
    else
        fail "strict reader: $name" "exit $rc, want /$want/:
$out"
    fi
}
expect "the strict reader reads the first record" "$one: 1 games" "$(strict "$one")"
strict_bad "the roster out of order" "Seven Tag Roster is not first and in order" \
    '1{h;d}; 2{G}'
strict_bad "a roster tag missing" "Seven Tag Roster" '/^\[Round /d'
strict_bad "a roster tag after another" "Seven Tag Roster" '/^\[Result /{h;d}; /^\[Variant /G'
strict_bad "two spaces in a tag pair" "not a tag pair" 's/^\[Site "/[Site  "/'
strict_bad "a bad escape" "not a tag pair" 's/^\[Site "\?"\]/[Site "a\\n"]/'
strict_bad "a quote unescaped" "not a tag pair" 's/^\[Site "\?"\]/[Site "a"b"]/'
strict_bad "a tag name in lower case" "not a tag pair" 's/^\[Variant /[variant /'
strict_bad "a tag twice" "tag Variant appears twice" 's/^\[Variant .*/&\n&/'
strict_bad "a Date not YYYY.MM.DD" "Date is not" 's/^\[Date "[^"]*"\]/[Date "4 Dec 2026"]/'
strict_bad "a Result not PGN's" "none of 1-0 0-1" \
    "s|^\[Result \"$result\"\]|[Result \"draw\"]|; s| $result\$| draw|"
strict_bad "no empty line after the tags" "no empty line after the tags" '/^$/{x;/^$/!{x;b};d}'
strict_bad "the result token unlike the tag" "differs from the Result tag" "s| $result\$| $other|"
strict_bad "no result token" "does not end with the result token" "s| $result\$||"
strict_bad "a comment never closed" "never closed" 's/\]\}/]/g'
strict_bad "a skipped move number" "move number 3\. after 1" 's/ 2\. / 3. /'
strict_bad "a move after a comment without its number" "without a move number indication" \
    's/ 1\.\.\. / /'
strict_bad "no space after a move number" "no space after a move number" 's/^1\. /1./'
strict_bad "a movetext line over 79 columns" "more than 79" \
    's/^(1\. .*)$/\1 {aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}/'
strict_bad "a tab" "a tab" 's/^1\. /1.\t/'
strict_bad "a line over 255 characters" "more than 255" \
    "s/^\[Site \"\?\"\]/[Site \"$(printf 'x%.0s' $(seq 1 260))\"]/"
strict_bad "a stray character in the movetext" "no token begins with" 's/^1\. /1. @ /'
printf '[Event "?"]\n' | strict - >/dev/null 2>&1
expect "strict reader: tags alone are refused" 1 "$?"
: | strict - >/dev/null 2>&1
expect "strict reader: no game is refused" 1 "$?"
