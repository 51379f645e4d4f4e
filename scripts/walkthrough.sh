#!/usr/bin/env bash
# The README's "Walk-through with curl", as one script. Each block between a `# >>> name` line
# and a `# <<<` line appears verbatim in README.md as a ```sh block, in the same order
# (e2e/src/walkthrough.test.ts checks both ways and runs this script against `pnpm start:sim`).
# The lines outside the blocks check what each step returned and print `ok: <step>`.
#
#   pnpm start:sim                 # in another terminal
#   bash scripts/walkthrough.sh    # API (default http://localhost:8080), RECEIVER_PORT (9099)
#
# Needs bash, curl and node, nothing else. Leaves nothing behind: the steps write their files in
# the temporary folder $WORK (made by the first block), which is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
trap 'if [ -n "${RECEIVER_PID:-}" ]; then kill "$RECEIVER_PID" 2>/dev/null || true; fi; if [ -n "${WORK:-}" ]; then rm -rf "$WORK"; fi' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
ok() { printf '\nok: %s\n' "$*"; }   # on its own line: curl prints no newline after a body
# expect NAME ACTUAL WANTED
expect() { [ "$2" = "$3" ] || fail "$1: got '$2', wanted '$3'"; }
# waits up to $2 seconds for the command $1 to succeed
within() { local i; for ((i = 0; i < $2 * 10; i++)); do if eval "$1"; then return 0; fi; sleep 0.1; done; fail "not within $2 s: $1"; }

# >>> helpers
API=${API:-http://localhost:8080}
WORK=$(mktemp -d)   # the files the steps write (a receiver's log, an export) go here, not into the repository
# jget PATH prints one field of the JSON on stdin (`jget data.id`, `jget data.0.id`); `jq -r .PATH` works too
jget() { node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v?.[k];console.log(typeof v==="object"?JSON.stringify(v):v)})' "$1"; }
# <<<
within 'curl -sf "$API/readyz" > /dev/null' 30
ok helpers

# >>> project
OUT=$(pnpm --silent admin create-project --name "Price monitor" --plan starter --credits 1000 --json)
echo "$OUT"   # {"organizationId":"org_…","userId":"usr_…","projectId":"prj_…","apiKey":"cds_…","keyPrefix":"cds_…"}
KEY=$(echo "$OUT" | jget apiKey)
PROJECT=$(echo "$OUT" | jget projectId)
# <<<
[[ $KEY == cds_* && $PROJECT == prj_* ]] || fail "project: $OUT"
ok project

# >>> receiver
RECEIVER_PORT=${RECEIVER_PORT:-9099}   # set here, not inside the `&` line: that one runs in a subshell
node -e 'require("http").createServer((req,res)=>{let b="";req.on("data",(c)=>(b+=c)).on("end",()=>{console.log(req.headers["x-service-event"],b);res.end("ok")})}).listen(process.argv[1],"127.0.0.1")' "$RECEIVER_PORT" > "$WORK/deliveries.log" &
RECEIVER_PID=$!
# <<<
within '(: > "/dev/tcp/127.0.0.1/$RECEIVER_PORT") 2> /dev/null' 10
ok receiver

# >>> webhooks
curl -s -X PATCH $API/v1/key/projects/$PROJECT/webhooks \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"configs":[{"url":"http://127.0.0.1:'$RECEIVER_PORT'/crawl","triggerAction":"job.completed"},
                  {"url":"http://127.0.0.1:'$RECEIVER_PORT'/crawl","triggerAction":"product.changed"}]}' > "$WORK/webhooks.json"
cat "$WORK/webhooks.json"
HOOK=$(jget data.configs.0.id < "$WORK/webhooks.json")
curl -s -X POST $API/v1/key/projects/$PROJECT/webhooks/test \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"webhookId":"'$HOOK'"}'
# {"data":{"success":true,"statusCode":200,…}}; $WORK/deliveries.log shows: job.completed {"id":…,"test":true,…}
# <<<
expect 'webhook count' "$(jget data.configs.length < "$WORK/webhooks.json")" 2
expect 'webhook id' "${HOOK:0:4}" whk_
within 'grep -q "^job.completed .*\"test\":true" "$WORK/deliveries.log"' 10
ok webhooks

# >>> job
OUT=$(curl -s -X POST $API/v1/key/projects/$PROJECT/jobs \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -H 'Idempotency-Key: 7d0c1e4a-first-try' \
  -d '{"type":"details","targets":["B0DR8G428S","https://www.amazon.com/dp/B073WRF565"],"config":{"marketplace":"US","lang":"en-US"}}')
echo "$OUT"   # {"data":{"id":"job_…","status":"queued","progress":{"total":2,…},"credits":{"reserved":4,…},…}}
JOB=$(echo "$OUT" | jget data.id)
# <<<
expect 'job credits reserved' "$(echo "$OUT" | jget data.credits.reserved)" 4
ok job

# >>> poll
# a client backs off (2, 5, then every 10 s); the simulator answers at once
while [[ $(curl -s $API/v1/key/jobs/$JOB -H "Authorization: Bearer $KEY" | jget data.status) =~ ^(queued|running)$ ]]; do sleep 2; done
curl -s $API/v1/key/jobs/$JOB -H "Authorization: Bearer $KEY"
# <<<
STATUS=$(curl -s "$API/v1/key/jobs/$JOB" -H "Authorization: Bearer $KEY")
expect 'job status' "$(echo "$STATUS" | jget data.status)" completed
expect 'job succeeded' "$(echo "$STATUS" | jget data.progress.succeeded)" 2
ok poll

# >>> results
curl -s "$API/v1/key/jobs/$JOB/results?limit=100&offset=0" -H "Authorization: Bearer $KEY"
curl -s -o "$WORK/items.csv" "$API/v1/key/jobs/$JOB/export?format=csv" -H "Authorization: Bearer $KEY" && head -c 300 "$WORK/items.csv"
curl -s "$API/v1/key/projects/$PROJECT/jobs?status=completed&q=B0DR8G428S" -H "Authorization: Bearer $KEY"
# <<<
expect 'results' "$(curl -s "$API/v1/key/jobs/$JOB/results" -H "Authorization: Bearer $KEY" | jget data.length)" 2
grep -q B0DR8G428S "$WORK/items.csv" && grep -q B073WRF565 "$WORK/items.csv" || fail "export: $(head -c 500 "$WORK/items.csv")"
expect 'jobs found' "$(curl -s "$API/v1/key/projects/$PROJECT/jobs?status=completed&q=B0DR8G428S" -H "Authorization: Bearer $KEY" | jget pagination.total)" 1
ok results

# >>> deliveries
curl -s "$API/v1/key/projects/$PROJECT/webhooks/deliveries?event=job.completed" -H "Authorization: Bearer $KEY"
grep -v '"test":true' "$WORK/deliveries.log"   # job.completed {"id":"dlv_…","event":"job.completed",…,"data":{"id":"job_…",…}}
# <<<
delivered() { curl -s "$API/v1/key/projects/$PROJECT/webhooks/deliveries?event=job.completed&status=delivered" -H "Authorization: Bearer $KEY" | jget pagination.total; }
within 'grep -q "^job.completed .*\"$JOB\"" "$WORK/deliveries.log"' 30
within '[ "$(delivered)" = 1 ]' 10
ok deliveries

# >>> tracking
OUT=$(curl -s -X POST $API/v1/key/projects/$PROJECT/jobs \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"type":"details","targets":["B0DR8G428S","B073WRF565"]}')
JOB2=$(echo "$OUT" | jget data.id)
while [[ $(curl -s $API/v1/key/jobs/$JOB2 -H "Authorization: Bearer $KEY" | jget data.status) =~ ^(queued|running)$ ]]; do sleep 2; done
curl -s "$API/v1/key/projects/$PROJECT/tracked-targets?marketplace=US" -H "Authorization: Bearer $KEY"
curl -s "$API/v1/key/projects/$PROJECT/tracked-targets/B0DR8G428S/timeline?marketplace=US" -H "Authorization: Bearer $KEY"
curl -s "$API/v1/key/projects/$PROJECT/compare?from=$JOB&to=$JOB2" -H "Authorization: Bearer $KEY"
# <<<
expect 'second job' "$(curl -s "$API/v1/key/jobs/$JOB2" -H "Authorization: Bearer $KEY" | jget data.status)" completed
expect 'tracked targets' "$(curl -s "$API/v1/key/projects/$PROJECT/tracked-targets?marketplace=US" -H "Authorization: Bearer $KEY" | jget pagination.total)" 2
expect 'timeline snapshots' "$(curl -s "$API/v1/key/projects/$PROJECT/tracked-targets/B0DR8G428S/timeline?marketplace=US" -H "Authorization: Bearer $KEY" | jget data.length)" 2
expect 'compared in both' "$(curl -s "$API/v1/key/projects/$PROJECT/compare?from=$JOB&to=$JOB2" -H "Authorization: Bearer $KEY" | jget data.summary.inBoth)" 2
ok tracking

# >>> schedules
OUT=$(curl -s -X POST $API/v1/key/projects/$PROJECT/schedules \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"cron":"0 9 * * 1","crawlConfig":{"type":"search","targets":["wireless earbuds"],"config":{"marketplace":"US"}}}')
echo "$OUT"   # {"data":{"id":"sch_…","cron":"0 9 * * 1","enabled":true,"nextRunAt":"…T09:00:00.000Z",…}}
SCHEDULE=$(echo "$OUT" | jget data.id)
curl -s $API/v1/key/projects/$PROJECT/schedules -H "Authorization: Bearer $KEY"
curl -s -X PATCH $API/v1/key/schedules/$SCHEDULE \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"cron":"30 */15 * * * *","enabled":false}'
curl -s -X DELETE $API/v1/key/schedules/$SCHEDULE -H "Authorization: Bearer $KEY" -w '%{http_code}\n'   # 204
# <<<
expect 'schedule enabled' "$(echo "$OUT" | jget data.enabled)" true
expect 'schedule gone' "$(curl -s -o /dev/null -w '%{http_code}' "$API/v1/key/schedules/$SCHEDULE" -H "Authorization: Bearer $KEY")" 404
ok schedules

# >>> analytics
curl -s "$API/v1/key/projects/$PROJECT/analytics" -H "Authorization: Bearer $KEY"
# {"data":{"range":{…},"jobs":{"total":2,"byStatus":{"completed":2,…},…},"targets":{…},"credits":{…},…,"daily":[…]}}
# <<<
expect 'analytics jobs' "$(curl -s "$API/v1/key/projects/$PROJECT/analytics" -H "Authorization: Bearer $KEY" | jget data.jobs.byStatus.completed)" 2
ok analytics

# >>> usage
curl -s "$API/v1/key/projects/$PROJECT/usage?limit=10" -H "Authorization: Bearer $KEY"
# {"data":{"plan":"starter","balance":992,…,"credits":{"granted":1000,"reserved":8,"consumed":8,"refunded":0},"ledger":[…]},"pagination":{…}}
# <<<
USAGE=$(curl -s "$API/v1/key/projects/$PROJECT/usage?limit=10" -H "Authorization: Bearer $KEY")
expect 'balance' "$(echo "$USAGE" | jget data.balance)" 992
expect 'consumed' "$(echo "$USAGE" | jget data.credits.consumed)" 8
ok usage

# >>> estimate
curl -s -X POST $API/v1/key/projects/$PROJECT/jobs/estimate \
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"type":"search","targets":["wireless earbuds","usb c hub"],"config":{"marketplace":"US","pages":3}}'
# {"data":{"targets":2,"pages":3,"creditsPerTarget":15,"cost":30,"balance":992,"accepted":true,"refusal":null}}
# <<<
ESTIMATE=$(curl -s -X POST "$API/v1/key/projects/$PROJECT/jobs/estimate" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"type":"search","targets":["wireless earbuds","usb c hub"],"config":{"marketplace":"US","pages":3}}')
expect 'estimate cost' "$(echo "$ESTIMATE" | jget data.cost)" 30
expect 'estimate accepted' "$(echo "$ESTIMATE" | jget data.accepted)" true
expect 'nothing reserved' "$(curl -s "$API/v1/key/projects/$PROJECT/usage" -H "Authorization: Bearer $KEY" | jget data.balance)" 992
ok estimate

# >>> delete
curl -s -X DELETE $API/v1/key/jobs/$JOB -H "Authorization: Bearer $KEY"   # the job stays, its results are purged
curl -s "$API/v1/key/jobs/$JOB/results" -H "Authorization: Bearer $KEY"   # 410 GONE
# <<<
expect 'results after delete' "$(curl -s -o /dev/null -w '%{http_code}' "$API/v1/key/jobs/$JOB/results" -H "Authorization: Bearer $KEY")" 410
expect 'job after delete' "$(curl -s "$API/v1/key/jobs/$JOB" -H "Authorization: Bearer $KEY" | jget data.status)" completed
ok delete

# >>> stop
kill $RECEIVER_PID && rm -r "$WORK"
# <<<
RECEIVER_PID=
ok stop
