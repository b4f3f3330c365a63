"""A working chat: a small team's web app CI/CD pipeline on GitHub Actions, over weeks of sessions."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u

CHAT = Chat(
    name="ws-01-ci-pipeline",
    sessions=[
        Session(
            "2026-01-12T09:14:00Z",
            [
                u(
                    "Hi! I'm Noor, one of the engineers at Brackenridge Labs. We build Larkspur, a booking "
                    "and notes app for physiotherapy clinics: Django backend, React frontend, Postgres "
                    "underneath. Our GitHub Actions setup grew organically and I've been asked to clean it "
                    "up. Here's the whole thing as it stands:\n"
                    "\n"
                    "```yaml\n"
                    "name: CI\n"
                    "on: [push, pull_request]\n"
                    "jobs:\n"
                    "  test:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    services:\n"
                    "      postgres:\n"
                    "        image: postgres:13\n"
                    "        env:\n"
                    "          POSTGRES_PASSWORD: postgres\n"
                    '        ports: ["5432:5432"]\n'
                    "    steps:\n"
                    "      - uses: actions/checkout@v4\n"
                    "      - uses: actions/setup-python@v5\n"
                    "        with:\n"
                    '          python-version: "3.11"\n'
                    "      - run: pip install -r requirements/dev.txt\n"
                    "      - run: python manage.py migrate\n"
                    "      - run: pytest\n"
                    "      - uses: actions/setup-node@v4\n"
                    "        with:\n"
                    "          node-version: 20\n"
                    "      - run: cd frontend && npm install && npm run lint && npm test\n"
                    "      - run: docker build -t larkspur:${{ github.sha }} .\n"
                    "      - run: docker push ghcr.io/brackenridge/larkspur:${{ github.sha }}\n"
                    "```\n"
                    "\n"
                    "Where do I even start?"
                ),
                a(
                    "Good news: this is a very common starting point, and most of the wins are mechanical. "
                    "Reading it top to bottom, here's what stands out:\n"
                    "\n"
                    "1. **`on: [push, pull_request]` runs everything twice** for any branch that has an open "
                    "PR: once for the push, once for the PR event. Usually you want `push` only on `main` and "
                    "`pull_request` for everything else.\n"
                    "2. **One job does everything in series.** Backend tests, frontend lint/tests and the "
                    "image build don't depend on each other, so they can run in parallel jobs. Wall-clock "
                    "time becomes the slowest job instead of the sum.\n"
                    "3. **Nothing is cached.** `pip install` and `npm install` download the world on every "
                    "run, and `docker build` starts from zero because hosted runners are fresh VMs.\n"
                    "4. **`npm install` instead of `npm ci`** can rewrite the lockfile and is slower in CI.\n"
                    "5. **The push step can't work as written**: the image is tagged `larkspur:<sha>` but the "
                    "push targets `ghcr.io/brackenridge/larkspur:<sha>`, and there's no `docker login`. I "
                    "suspect it either fails or something else pushes the image.\n"
                    "6. **The image is built for every push to every branch**, even when nobody will ever "
                    "deploy it.\n"
                    "\n"
                    "A rough target shape:\n"
                    "\n"
                    "```yaml\n"
                    "name: CI\n"
                    "on:\n"
                    "  push:\n"
                    "    branches: [main]\n"
                    "  pull_request:\n"
                    "\n"
                    "concurrency:\n"
                    "  group: ci-${{ github.ref }}\n"
                    "  cancel-in-progress: true\n"
                    "\n"
                    "jobs:\n"
                    "  backend:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    # postgres service, pip cache, pytest\n"
                    "  frontend:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    # node cache, npm ci, lint, test\n"
                    "  image:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    needs: [backend, frontend]\n"
                    "    if: github.ref == 'refs/heads/main'\n"
                    "    # buildx with layer cache, login, push\n"
                    "```\n"
                    "\n"
                    "The `concurrency` block also cancels a run when someone pushes again to the same branch, "
                    "which alone saves a surprising number of minutes on busy days.\n"
                    "\n"
                    "I'd start by splitting the jobs (low risk, big win), then caching, then the image job. "
                    "Do you know roughly where the time goes today?"
                ),
                u(
                    "Not in detail. I know a full run takes about 19 minutes on every push, which is killing us.",
                    key="ku-build-1",
                ),
                a(
                    "That's long enough that people stop waiting for CI and merge on vibes, so it's worth "
                    "fixing. Before changing anything, let's get real numbers per step so we know what we're "
                    "optimising. The `gh` CLI can pull step timings out of recent runs:\n"
                    "\n"
                    "```bash\n"
                    "#!/usr/bin/env bash\n"
                    "# step-times.sh: average duration of each step over the last N successful runs\n"
                    "set -euo pipefail\n"
                    "N=${1:-10}\n"
                    "\n"
                    'gh run list --workflow ci.yml --status success --limit "$N" --json databaseId \\\n'
                    "  --jq '.[].databaseId' |\n"
                    "while read -r run_id; do\n"
                    '  gh run view "$run_id" --json jobs --jq \'\n'
                    "    .jobs[].steps[]\n"
                    "    | select(.startedAt != null and .completedAt != null)\n"
                    "    | [.name, ((.completedAt | fromdate) - (.startedAt | fromdate))]\n"
                    "    | @tsv'\n"
                    "done |\n"
                    "awk -F'\\t' '{ sum[$1] += $2; n[$1]++ }\n"
                    '  END { for (s in sum) printf "%6.0fs  %s\\n", sum[s] / n[s], s }\' |\n'
                    "sort -rn\n"
                    "```\n"
                    "\n"
                    "Run it from the repo root with `gh` authenticated. It prints average seconds per step, "
                    "slowest first. Paste the output and we'll pick targets."
                ),
                u(
                    "here:\n"
                    "\n"
                    "```\n"
                    "   492s  Run docker build -t larkspur:${{ github.sha }} .\n"
                    "   220s  Run pip install -r requirements/dev.txt\n"
                    "   185s  Run pytest\n"
                    "   175s  Run cd frontend && npm install && npm run lint && npm test\n"
                    "    48s  Run docker push ghcr.io/brackenridge/larkspur:${{ github.sha }}\n"
                    "    21s  Initialize containers\n"
                    "    14s  Run python manage.py migrate\n"
                    "     6s  Run actions/setup-python@v5\n"
                    "     4s  Run actions/checkout@v4\n"
                    "     3s  Run actions/setup-node@v4\n"
                    "```\n"
                    "\n"
                    "the push apparently works btw, someone set up a PAT in the runner env ages ago. don't "
                    "ask."
                ),
                a(
                    "Very clear picture:\n"
                    "\n"
                    "- **`docker build`: ~8 minutes.** Almost certainly rebuilding every layer each time. "
                    "With a layer cache this usually drops to under a minute when only application code "
                    "changes.\n"
                    "- **`pip install`: ~3.5 minutes.** A pip cache keyed on the requirements files brings "
                    "this to 20 to 40 seconds.\n"
                    "- **`pytest`: ~3 minutes.** Fine for now; later we can parallelise.\n"
                    "- **frontend: ~3 minutes**, mostly `npm install`. `npm ci` plus the npm cache helps.\n"
                    "\n"
                    "Split into parallel jobs, the wall-clock time becomes roughly max(backend, frontend) "
                    "plus the image job, and the image job only runs on `main`. On a PR you'd be waiting for "
                    "the slower of two ~3-minute jobs.\n"
                    "\n"
                    "About the mystery PAT: we'll replace that with an explicit login step so it's visible in "
                    "the workflow instead of living in someone's memory. I'll write the backend job first "
                    "unless you'd rather start elsewhere."
                ),
                u(
                    "Before you rewrite anything: one rule for everything you write for us. Pin third-party "
                    "actions to a full commit SHA, never a moving tag like @v4. Kofi, our CTO, is strict "
                    "about this after a supply-chain scare last spring.",
                    key="si-sha",
                ),
                a(
                    "Understood. Every `uses:` will point at the 40-character hash, with the human-readable "
                    "version in a trailing comment so Dependabot and humans can still tell what it is:\n"
                    "\n"
                    "```yaml\n"
                    "steps:\n"
                    "  - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "  - uses: actions/setup-python@0b93645e9fea7318ecaed2b359559ac225c90a2b # v5.3.0\n"
                    "```\n"
                    "\n"
                    "Dependabot understands that format and will open PRs that bump both the hash and the "
                    "comment. If you don't have it yet, this is the minimal config:\n"
                    "\n"
                    "```yaml\n"
                    "# .github/dependabot.yml\n"
                    "version: 2\n"
                    "updates:\n"
                    "  - package-ecosystem: github-actions\n"
                    "    directory: /\n"
                    "    schedule:\n"
                    "      interval: weekly\n"
                    "    groups:\n"
                    "      actions:\n"
                    '        patterns: ["*"]\n'
                    "```\n"
                    "\n"
                    "The `groups` bit bundles all action bumps into one PR a week instead of five. Please "
                    "double-check the hashes against the action's release page before merging; I'm writing "
                    "them from memory and you want to verify them anyway, that's the point of pinning."
                ),
                u(
                    "Context on deploys: we deploy on Thursdays, after standup. Anything merged to main by "
                    "Wednesday evening goes out. Right now that's Tomasz running a script from his laptop, "
                    "which is... not great.",
                    key="ku-deploy-1",
                ),
                a(
                    "\"Deploy from Tomasz's laptop\" is a bus-factor problem more than a tooling one: if he's "
                    "ill on deploy day, does anyone else know the steps? Moving it into Actions gives you a "
                    "log of who deployed what and when, for free.\n"
                    "\n"
                    "You don't need continuous deployment to get that. A manually triggered workflow is "
                    "enough:\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/deploy.yml\n"
                    "name: Deploy\n"
                    "on:\n"
                    "  workflow_dispatch:\n"
                    "    inputs:\n"
                    "      ref:\n"
                    '        description: "Git ref to deploy (default: main)"\n'
                    "        required: false\n"
                    "        default: main\n"
                    "\n"
                    "jobs:\n"
                    "  deploy:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    environment: production\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "        with:\n"
                    "          ref: ${{ inputs.ref }}\n"
                    "      - name: Deploy\n"
                    '        run: ./scripts/deploy.sh "${{ inputs.ref }}"\n'
                    "        env:\n"
                    "          DEPLOY_HOST: ${{ vars.DEPLOY_HOST }}\n"
                    "          DEPLOY_KEY: ${{ secrets.DEPLOY_KEY }}\n"
                    "```\n"
                    "\n"
                    "The `environment: production` line matters: it lets you add required reviewers and "
                    "environment-scoped secrets later, so staging credentials can't leak into a production "
                    "job and vice versa."
                ),
                u(
                    "Can we keep it manual-trigger for now? The team isn't ready for continuous deployment. "
                    "Also Tomasz will want to keep his script as a fallback, he's attached to it."
                ),
                a(
                    "Yes, manual trigger is exactly what the workflow above does; nothing deploys unless "
                    'someone clicks "Run workflow" (or runs `gh workflow run deploy.yml`).\n'
                    "\n"
                    "Keeping his script as the fallback is sensible, and the cleanest way is to make the "
                    "workflow *call* the script rather than reimplement it. Then there's one deploy procedure "
                    "with two ways to start it. The script only needs to stop assuming it runs on his laptop:\n"
                    "\n"
                    "```bash\n"
                    "#!/usr/bin/env bash\n"
                    "# scripts/deploy.sh: used by CI and, in a pinch, by hand\n"
                    "set -euo pipefail\n"
                    "\n"
                    "REF=${1:-main}\n"
                    "HOST=${DEPLOY_HOST:?DEPLOY_HOST is not set}\n"
                    "\n"
                    "KEY_FILE=$(mktemp)\n"
                    "trap 'rm -f \"$KEY_FILE\"' EXIT\n"
                    'if [[ -n "${DEPLOY_KEY:-}" ]]; then\n'
                    '  printf \'%s\\n\' "$DEPLOY_KEY" > "$KEY_FILE"\n'
                    '  chmod 600 "$KEY_FILE"\n'
                    '  SSH_OPTS=(-i "$KEY_FILE" -o StrictHostKeyChecking=accept-new)\n'
                    "else\n"
                    "  SSH_OPTS=()   # by hand: use the caller's ssh agent\n"
                    "fi\n"
                    "\n"
                    'echo "Deploying $REF to $HOST"\n'
                    'ssh "${SSH_OPTS[@]}" "deploy@$HOST" "cd /srv/larkspur && ./release.sh \'$REF\'"\n'
                    "```\n"
                    "\n"
                    "If Tomasz's version has extra steps (collectstatic, migrations, a cache flush), they "
                    "stay in `release.sh` on the server, untouched."
                ),
                u(
                    "What's the difference between `npm install` and `npm ci` again? Ines always uses install "
                    "and I never remember the argument for ci."
                ),
                a(
                    "Short version:\n"
                    "\n"
                    "- `npm install` resolves versions from `package.json`, may **update** "
                    "`package-lock.json`, and reuses whatever is in `node_modules`.\n"
                    "- `npm ci` installs **exactly** what the lockfile says, **fails** if `package.json` and "
                    "the lockfile disagree, and deletes `node_modules` first.\n"
                    "\n"
                    "For CI you want `ci`: reproducible, and a mismatched lockfile becomes a loud failure "
                    "instead of a silent change. It's also faster because it skips resolution.\n"
                    "\n"
                    "For Ines on her machine, `install` is fine; that's how dependencies get added. The rule "
                    "of thumb: `install` when you mean to change dependencies, `ci` when you mean to "
                    "reproduce them."
                ),
                u("ok makes sense. it's Monday and I've had exactly one coffee, so forgive the dumb questions today"),
                a(
                    "Not dumb at all; the `install`/`ci` difference trips up people who've used npm for "
                    "years. Ask away."
                ),
                u("Let's start with the split then. Can you write the backend job first?"),
                a(
                    "Here's the backend job. It assumes your requirements live in a `requirements/` folder "
                    "with `dev.txt` including the base file via `-r base.txt`, which is what the path in your "
                    "current workflow suggests:\n"
                    "\n"
                    "```yaml\n"
                    "  backend:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    services:\n"
                    "      postgres:\n"
                    "        image: postgres:13\n"
                    "        env:\n"
                    "          POSTGRES_USER: larkspur\n"
                    "          POSTGRES_PASSWORD: larkspur\n"
                    "          POSTGRES_DB: larkspur\n"
                    '        ports: ["5432:5432"]\n'
                    "        options: >-\n"
                    '          --health-cmd "pg_isready -U larkspur"\n'
                    "          --health-interval 5s\n"
                    "          --health-timeout 5s\n"
                    "          --health-retries 10\n"
                    "    env:\n"
                    "      DATABASE_URL: postgres://larkspur:larkspur@localhost:5432/larkspur\n"
                    "      DJANGO_SETTINGS_MODULE: larkspur.settings.ci\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "      - uses: actions/setup-python@0b93645e9fea7318ecaed2b359559ac225c90a2b # v5.3.0\n"
                    "        with:\n"
                    '          python-version: "3.11"\n'
                    "          cache: pip\n"
                    "          cache-dependency-path: requirements/*.txt\n"
                    "      - run: pip install -r requirements/dev.txt\n"
                    "      - run: python manage.py migrate --noinput\n"
                    "      - run: pytest -q --maxfail=5\n"
                    "```\n"
                    "\n"
                    "Notes:\n"
                    "\n"
                    "- The health check options make the job wait until Postgres is actually accepting "
                    'connections; without them you occasionally get "connection refused" on the first '
                    "migrate.\n"
                    "- `cache: pip` caches pip's download cache, keyed on a hash of the files matched by "
                    "`cache-dependency-path`. Change any requirements file and the key changes; otherwise the "
                    "wheels come from the cache.\n"
                    "- `larkspur.settings.ci` is a guess. If you don't have a CI settings module, point it at "
                    "whatever your tests use today.",
                    key="code-pipkey",
                ),
                u(
                    "Pasted it in, the backend job went green in 6m40s on the first run (cold cache) and "
                    "4m05s on the second. Frontend next?"
                ),
                a(
                    "The second-run number is the one that matters, and the gap is the pip cache doing its "
                    "job. Frontend:\n"
                    "\n"
                    "```yaml\n"
                    "  frontend:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    defaults:\n"
                    "      run:\n"
                    "        working-directory: frontend\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "      - uses: actions/setup-node@39370e3970a6d050c480ffad4ff0ed4d3fdee5af # v4.1.0\n"
                    "        with:\n"
                    "          node-version: 20\n"
                    "      - run: npm ci\n"
                    "      - run: npm run lint\n"
                    "      - run: npm test -- --watchAll=false\n"
                    "```\n"
                    "\n"
                    "`defaults.run.working-directory` saves the `cd frontend &&` on every line. The "
                    "`--watchAll=false` is there in case your test script is Jest in watch mode by default; "
                    "drop it if `npm test` already exits on its own. I left out the npm cache on purpose so "
                    "you can see the uncached time first, and we'll add it when we get to caching."
                ),
                u("Thanks. I'll open the PR and get Tomasz to review. Back later this week for the Docker part."),
                a(
                    "Sounds good. Checklist for the PR so the review goes quickly:\n"
                    "\n"
                    "- [ ] `on:` limited to `push` on `main` plus `pull_request`\n"
                    "- [ ] `concurrency` group with `cancel-in-progress`\n"
                    "- [ ] `backend` and `frontend` jobs, every action pinned\n"
                    "- [ ] old single job deleted (not just disabled)\n"
                    "- [ ] `.github/dependabot.yml` for action bumps\n"
                    "\n"
                    "Leave the image build as it is for now; we'll rebuild that job properly when we do "
                    "Docker."
                ),
            ],
        ),
        Session(
            "2026-01-15T14:30:00Z",
            [
                u(
                    "Back for the Docker part. Tomasz approved the split, it's merged. Here's our Dockerfile:\n"
                    "\n"
                    "```dockerfile\n"
                    "FROM python:3.11-slim\n"
                    "WORKDIR /app\n"
                    "COPY . .\n"
                    "RUN apt-get update && apt-get install -y libpq-dev gcc libpango-1.0-0 libpangoft2-1.0-0\n"
                    "RUN pip install -r requirements/base.txt\n"
                    "RUN cd frontend && apt-get install -y nodejs npm && npm install && npm run build\n"
                    "RUN python manage.py collectstatic --noinput\n"
                    'CMD ["gunicorn", "larkspur.wsgi", "-b", "0.0.0.0:8000", "-w", "3"]\n'
                    "```"
                ),
                a(
                    "The main reason this takes eight minutes is line 3: `COPY . .` comes before everything "
                    "else, so **any** change to **any** file invalidates every layer after it. Docker's cache "
                    "is sequential; once one layer misses, everything below rebuilds. So each push reinstalls "
                    "apt packages, all Python dependencies and the whole node toolchain.\n"
                    "\n"
                    "The fix is to order layers from least to most frequently changing, and to build the "
                    "frontend in a separate stage so node never ends up in the final image:\n"
                    "\n"
                    "```dockerfile\n"
                    "# syntax=docker/dockerfile:1.7\n"
                    "\n"
                    "FROM node:20-slim AS frontend\n"
                    "WORKDIR /frontend\n"
                    "COPY frontend/package.json frontend/package-lock.json ./\n"
                    "RUN npm ci\n"
                    "COPY frontend/ ./\n"
                    "RUN npm run build\n"
                    "\n"
                    "FROM python:3.11-slim AS app\n"
                    "WORKDIR /app\n"
                    "RUN apt-get update \\\n"
                    " && apt-get install -y --no-install-recommends libpq5 libpango-1.0-0 libpangoft2-1.0-0 "
                    "\\\n"
                    " && rm -rf /var/lib/apt/lists/*\n"
                    "COPY requirements/ requirements/\n"
                    "RUN pip install --no-cache-dir -r requirements/base.txt\n"
                    "COPY . .\n"
                    "COPY --from=frontend /frontend/build ./frontend/build\n"
                    "RUN python manage.py collectstatic --noinput\n"
                    'CMD ["gunicorn", "larkspur.wsgi", "-b", "0.0.0.0:8000", "-w", "3"]\n'
                    "```\n"
                    "\n"
                    "What changed:\n"
                    "\n"
                    "- Dependencies are installed from just the requirements and lockfile, so those layers "
                    "stay cached until a dependency changes.\n"
                    "- `libpq5` (the runtime library) instead of `libpq-dev` + `gcc`, which works if you use "
                    "`psycopg2-binary`; if you compile `psycopg2` from source, you'd need a builder stage for "
                    "that too.\n"
                    "- Node only exists in the first stage, which shrinks the final image a lot.\n"
                    "\n"
                    "Also add a `.dockerignore` with at least `.git`, `node_modules`, "
                    "`frontend/node_modules`, `*.pyc` and `.env`, otherwise `COPY . .` drags all of that into "
                    "the build context."
                ),
                u("Small request: put the code first and the explanation after it. I skim.", key="si-codefirst"),
                a(
                    "```yaml\n"
                    "  image:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    needs: [backend, frontend]\n"
                    "    if: github.ref == 'refs/heads/main'\n"
                    "    permissions:\n"
                    "      contents: read\n"
                    "      packages: write\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "      - uses: docker/login-action@9780b0c442fbb1117ed29e0efdff1e18412f7567 # v3.3.0\n"
                    "        with:\n"
                    "          registry: ghcr.io\n"
                    "          username: ${{ github.actor }}\n"
                    "          password: ${{ secrets.GITHUB_TOKEN }}\n"
                    "      - uses: docker/build-push-action@4f58ea79222b3b9dc2c8bbdd6debcef730109a75 # v6.9.0\n"
                    "        with:\n"
                    "          context: .\n"
                    "          push: true\n"
                    "          tags: ghcr.io/brackenridge/larkspur:${{ github.sha }}\n"
                    "          cache-from: type=gha\n"
                    "          cache-to: type=gha,mode=max\n"
                    "```\n"
                    "\n"
                    "The image job with the GitHub Actions cache backend. `cache-from`/`cache-to` store the "
                    "layers in the same cache service that `setup-python` uses. `mode=max` also caches the "
                    "intermediate stages (the node stage), not just the final one. The login uses the "
                    "built-in `GITHUB_TOKEN` with `packages: write`, so the mystery PAT can go."
                ),
                u(
                    "```\n"
                    "#12 exporting cache\n"
                    "#12 ERROR: failed to solve: cache export feature is currently not supported for docker "
                    'driver. Please switch to a different driver (eg. "docker buildx create --use")\n'
                    "Error: buildx failed with: ERROR: failed to solve: cache export feature is currently not "
                    "supported for docker driver.\n"
                    "```"
                ),
                a(
                    "```yaml\n"
                    "      - uses: docker/setup-buildx-action@c47758b77c9736f4b2ef4073d4d51994fabfe349 # "
                    "v3.7.1\n"
                    "```\n"
                    "\n"
                    "Add that step before `build-push-action`. The default builder on the runner uses the "
                    "plain `docker` driver, which can't export a cache. `setup-buildx-action` creates a "
                    "`docker-container` builder that can, and `build-push-action` picks it up automatically."
                ),
                u("That worked. First run of the image job 9 minutes (cold), second run 2m10s 🎉"),
                a(
                    "```text\n"
                    "#8 [app 4/7] RUN pip install --no-cache-dir -r requirements/base.txt\n"
                    "#8 CACHED\n"
                    "```\n"
                    "\n"
                    "That's what you should see for the dependency layers now. The 2m10s is mostly the push "
                    "and exporting the cache. If that becomes the long pole, `mode=min` exports less, at the "
                    "cost of rebuilding the node stage more often."
                ),
                u(
                    "Unrelated but annoying: test_calendar_sync fails maybe one run in eight and I want to "
                    "quarantine it so it stops blocking merges. Before I do, can you see why it flakes? "
                    "Here's the failure and the test:\n"
                    "\n"
                    "```\n"
                    "FAILED tests/calendar/test_sync.py::test_calendar_sync - AssertionError: expected 1 "
                    "appointment for tomorrow, got 0\n"
                    "    assert len(slots) == 1\n"
                    "E   assert 0 == 1\n"
                    "E    +  where 0 = len([])\n"
                    "```\n"
                    "\n"
                    "```python\n"
                    "def test_calendar_sync(clinic, therapist):\n"
                    "    tomorrow = date.today() + timedelta(days=1)\n"
                    "    make_appointment(therapist, start=datetime.combine(tomorrow, time(9, 0), "
                    "tzinfo=clinic.tz))\n"
                    "    sync_calendar(clinic)\n"
                    "    slots = clinic.appointments_for(timezone.localdate(timezone=clinic.tz) + "
                    "timedelta(days=1))\n"
                    "    assert len(slots) == 1\n"
                    "```\n"
                    "\n"
                    "clinic.tz is Europe/Berlin in the fixture.",
                    key="mt-flaky-1",
                ),
                a(
                    "```diff\n"
                    "-    tomorrow = date.today() + timedelta(days=1)\n"
                    "+    tomorrow = timezone.localdate(timezone=clinic.tz) + timedelta(days=1)\n"
                    "     make_appointment(therapist, start=datetime.combine(tomorrow, time(9, 0), "
                    "tzinfo=clinic.tz))\n"
                    "     sync_calendar(clinic)\n"
                    "-    slots = clinic.appointments_for(timezone.localdate(timezone=clinic.tz) + "
                    "timedelta(days=1))\n"
                    "+    slots = clinic.appointments_for(tomorrow)\n"
                    "     assert len(slots) == 1\n"
                    "```\n"
                    "\n"
                    'The test builds "tomorrow" from a naive local date, `date.today()`, which is the '
                    "runner's date in UTC, and then checks against the clinic's tomorrow in Berlin. Between "
                    "23:00 and midnight UTC (midnight to 01:00 in Berlin), those are different days: the "
                    "appointment gets created for what Berlin already considers today, and the assertion "
                    "looks one day later. Runs that happen in that window fail, which with your commit "
                    "pattern is about one in eight.\n"
                    "\n"
                    "Computing the date once, in the clinic's timezone, and using it on both sides fixes it. "
                    "If you'd still rather quarantine first, see the next bit.",
                    key="sf-calendar-cause",
                ),
                u(
                    "I'll take the fix but quarantine anyway until Tomasz confirms nothing else in that file "
                    "depends on date.today(). How do we do a quarantine properly?"
                ),
                a(
                    "```python\n"
                    "# conftest.py\n"
                    "import pytest\n"
                    "\n"
                    "def pytest_configure(config):\n"
                    '    config.addinivalue_line("markers", "quarantine(reason): known-flaky test, run '
                    'separately")\n'
                    "\n"
                    "def pytest_collection_modifyitems(config, items):\n"
                    '    run_quarantined = config.getoption("-m") == "quarantine"\n'
                    "    if run_quarantined:\n"
                    "        return\n"
                    '    skip = pytest.mark.skip(reason="quarantined; runs in the quarantine job")\n'
                    "    for item in items:\n"
                    '        if item.get_closest_marker("quarantine"):\n'
                    "            item.add_marker(skip)\n"
                    "```\n"
                    "\n"
                    "```yaml\n"
                    "  quarantine:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    continue-on-error: true\n"
                    "    steps:\n"
                    "      # same setup steps as backend\n"
                    "      - run: pytest -m quarantine -q\n"
                    "```\n"
                    "\n"
                    'Mark the test with `@pytest.mark.quarantine(reason="date.today() vs clinic tz")`. The '
                    "main `backend` job skips it, and the `quarantine` job runs only quarantined tests with "
                    "`continue-on-error`, so a failure shows a warning but never blocks a merge. You still "
                    "see whether it passes, which tells you when it's safe to release it from quarantine."
                ),
                u(
                    "Where does the quarantine job's result show up? I don't want it silently ignored "
                    "forever, that's how these things rot."
                ),
                a(
                    "```yaml\n"
                    "      - name: Quarantine summary\n"
                    "        if: always()\n"
                    "        run: |\n"
                    "          {\n"
                    '            echo "## Quarantined tests"\n'
                    "            echo\n"
                    "            pytest -m quarantine --collect-only -q | grep '::' | sed 's/^/- /'\n"
                    "            echo\n"
                    '            echo "Result: ${{ job.status }}"\n'
                    '          } >> "$GITHUB_STEP_SUMMARY"\n'
                    "```\n"
                    "\n"
                    "This writes a small markdown list to the run's summary page, so anyone who opens the run "
                    "sees what's in quarantine and whether it passed. `if: always()` makes it run even when "
                    "the tests failed. Later we can add an age limit so nothing stays in quarantine for "
                    "months."
                ),
                u("Nice. How do I know if the Docker cache is actually being hit, beyond the build getting faster?"),
                a(
                    "```yaml\n"
                    "      - uses: docker/build-push-action@4f58ea79222b3b9dc2c8bbdd6debcef730109a75 # v6.9.0\n"
                    "        env:\n"
                    "          BUILDKIT_PROGRESS: plain\n"
                    "```\n"
                    "\n"
                    "With plain progress, each step in the log says `CACHED` or shows the actual commands "
                    "running. Look for `importing cache manifest from gha:...` near the top; if that line is "
                    "missing or shows an error, the cache wasn't read at all. The build summary that "
                    "`build-push-action` attaches to the run also shows the cached-step ratio."
                ),
                u(
                    "seeing CACHED on everything except COPY . . and collectstatic, which is what you'd "
                    "expect I guess. 👍 thanks, that's it for today"
                ),
                a(
                    "Exactly what you'd expect: those two depend on the source, so they have to run. Good "
                    "session; the image job went from eight minutes to about two."
                ),
            ],
        ),
        Session(
            "2026-01-22T10:05:00Z",
            [
                u(
                    "Update from our side: with the split jobs and the layer cache the whole workflow is at "
                    "about eleven minutes end to end on a PR. Better, but the backend tests are now the long "
                    "pole.",
                    key="ku-build-2",
                ),
                a(
                    "```bash\n"
                    "pip install pytest-xdist\n"
                    "pytest -n auto -q --maxfail=5\n"
                    "```\n"
                    "\n"
                    "```yaml\n"
                    "      - run: pytest -n auto -q --maxfail=5\n"
                    "```\n"
                    "\n"
                    "`pytest-xdist` spreads tests over one worker per CPU. Hosted Linux runners have 4 vCPUs, "
                    "so a CPU-bound suite typically gets 2.5 to 3.5 times faster. `pytest-django` handles the "
                    "database side: each worker gets its own test database with a `_gw0`, `_gw1`, … suffix, "
                    "so tests don't trample each other.\n"
                    "\n"
                    "Two things break under xdist more often than anything else: tests that depend on running "
                    "order, and tests that write to a fixed path on disk. If some fail only with `-n auto`, "
                    "that's where to look."
                ),
                u(
                    "Tried it locally first, blew up:\n"
                    "\n"
                    "```\n"
                    'E   psycopg2.errors.DuplicateDatabase: database "test_larkspur" already exists\n'
                    "../venv/lib/python3.11/site-packages/django/db/backends/utils.py:87: DuplicateDatabase\n"
                    "```\n"
                    "\n"
                    "we have a custom django_db_setup fixture in conftest that Tomasz wrote to load some "
                    "reference data"
                ),
                a(
                    "```python\n"
                    "# conftest.py\n"
                    "import pytest\n"
                    "from django.core.management import call_command\n"
                    "\n"
                    '@pytest.fixture(scope="session")\n'
                    "def django_db_setup(django_db_setup, django_db_blocker):\n"
                    "    # Let pytest-django create the (per-worker) database first, then load data into it.\n"
                    "    with django_db_blocker.unblock():\n"
                    '        call_command("loaddata", "reference/clinics.json", '
                    '"reference/treatment_codes.json")\n'
                    "```\n"
                    "\n"
                    "Your fixture almost certainly creates the database itself with a fixed name, so every "
                    "worker tries to create `test_larkspur` and the second one collides. Requesting "
                    "pytest-django's own `django_db_setup` as an argument, as above, lets it create the right "
                    "per-worker database, and yours only loads the reference data on top. If the original "
                    "fixture does anything else (extensions, a schema), keep that part inside the `unblock()` "
                    "block."
                ),
                u(
                    "That fixed it, 3m05s → 1m20s locally. \n"
                    "\n"
                    "Second thing: Kofi wants us to try a self-hosted runner. There's an old Intel NUC under "
                    "his desk that does nothing. Hostname is gritstone, 32 GB RAM, i7, Ubuntu 22.04.",
                    key="mt-runner",
                ),
                a(
                    "```bash\n"
                    "sudo useradd --create-home --shell /bin/bash runner\n"
                    "sudo -iu runner\n"
                    "mkdir actions-runner\n"
                    "cd actions-runner\n"
                    "curl -o runner.tar.gz -L "
                    "https://github.com/actions/runner/releases/download/v2.321.0/actions-runner-linux-x64-2.321.0.tar.gz\n"
                    "tar xzf runner.tar.gz\n"
                    "./config.sh --url https://github.com/brackenridge/larkspur --token <TOKEN FROM REPO "
                    'SETTINGS> --name "$(hostname)" --labels self-hosted,linux,nuc --unattended\n'
                    "exit\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "cd /home/runner/actions-runner\n"
                    "sudo ./svc.sh install runner\n"
                    "sudo ./svc.sh start\n"
                    "sudo ./svc.sh status\n"
                    "```\n"
                    "\n"
                    "The registration token comes from **Settings → Actions → Runners → New self-hosted "
                    "runner** and is valid for an hour. Running it under its own `runner` user keeps jobs "
                    "away from anyone's home directory. `svc.sh` installs a systemd unit so it comes back "
                    "after a reboot.\n"
                    "\n"
                    "To use it, change `runs-on: ubuntu-latest` to `runs-on: [self-hosted, nuc]` for the jobs "
                    "you want there. I'd move the backend job first and leave frontend on hosted runners "
                    "until the NUC proves itself.\n"
                    "\n"
                    "One warning because it matters: never attach a self-hosted runner to a **public** repo. "
                    "Anyone could open a PR that runs code on a machine in your office. Yours is private, so "
                    "fine, but keep it that way."
                ),
                u(
                    "For pushing images from the runner I made a fine-grained token and stored it as "
                    "REGISTRY_TOKEN in the repo secrets. Is that the right approach?"
                ),
                a(
                    "```yaml\n"
                    "    permissions:\n"
                    "      contents: read\n"
                    "      packages: write\n"
                    "    steps:\n"
                    "      - uses: docker/login-action@9780b0c442fbb1117ed29e0efdff1e18412f7567 # v3.3.0\n"
                    "        with:\n"
                    "          registry: ghcr.io\n"
                    "          username: ${{ github.actor }}\n"
                    "          password: ${{ secrets.GITHUB_TOKEN }}\n"
                    "```\n"
                    "\n"
                    "For pushing from a workflow in the same repo, you probably don't need a separate token "
                    "at all: `GITHUB_TOKEN` with `packages: write` works on self-hosted runners too, and it "
                    "expires when the job ends, so nothing long-lived sits around. I'd keep the fine-grained "
                    "token for the one thing `GITHUB_TOKEN` can't do: pulling images on machines outside "
                    "Actions, like the staging server. Set it to read-only packages scope and a 90-day "
                    "expiry."
                ),
                u(
                    "Tomasz suggested a Makefile so everyone has the same entry points. Honestly I hate "
                    "Makefiles — tabs, .PHONY, all of it. If we ever need a task runner I'd rather have plain "
                    "bash scripts in scripts/.",
                    key="pref-nomake",
                ),
                a(
                    "Noted. We can park the developer tooling question until the CI itself is settled; the "
                    "workflow doesn't care either way.\n"
                    "\n"
                    "Since you're setting up the NUC today, here's one thing worth having from the start, a "
                    "health check you can run by hand or from cron:\n"
                    "\n"
                    "```bash\n"
                    "#!/usr/bin/env bash\n"
                    "# runner-health.sh: is the NUC fit to take jobs?\n"
                    "set -uo pipefail\n"
                    "\n"
                    "fail=0\n"
                    "systemctl is-active --quiet 'actions.runner.*' || { echo \"runner service not active\"; "
                    "fail=1; }\n"
                    "\n"
                    "used=$(df --output=pcent / | tail -1 | tr -dc '0-9')\n"
                    '(( used < 85 )) || { echo "root disk at ${used}%"; fail=1; }\n'
                    "\n"
                    'docker info >/dev/null 2>&1 || { echo "docker daemon not reachable"; fail=1; }\n'
                    "\n"
                    '(( fail == 0 )) && echo "ok"\n'
                    'exit "$fail"\n'
                    "```\n"
                    "\n"
                    "Disk is the one that bites most often on a runner: Docker images and build caches pile "
                    'up quietly until a job fails with "no space left on device".'
                ),
                u(
                    "Also, on who can deploy: Kofi approves every production deploy at the moment, nobody "
                    "else has the rights.",
                    key="ku-approver-1",
                ),
                a(
                    "```yaml\n"
                    "jobs:\n"
                    "  deploy:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    environment:\n"
                    "      name: production\n"
                    "      url: https://app.larkspur.health\n"
                    "```\n"
                    "\n"
                    "Make that formal in GitHub rather than by convention: **Settings → Environments → "
                    'production → Required reviewers**, add him, and tick "Prevent self-review" if you\'re '
                    "on a plan that has it. Every job that names `environment: production` then pauses until "
                    "he approves it in the UI, and the approval is logged with the run.\n"
                    "\n"
                    "I'd also put production secrets (`DEPLOY_KEY`, anything with prod credentials) on the "
                    "environment rather than the repo, so they're only released to jobs that passed that "
                    "approval."
                ),
                u(
                    "Runner is up and the backend job ran on it: 3m50s on hosted vs 1m55s on the NUC. But the "
                    "image job I moved over failed:\n"
                    "\n"
                    "```\n"
                    "ERROR: permission denied while trying to connect to the Docker daemon socket at "
                    'unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.47/info": dial '
                    "unix /var/run/docker.sock: connect: permission denied\n"
                    "```"
                ),
                a(
                    "```bash\n"
                    "sudo usermod -aG docker runner\n"
                    "```\n"
                    "\n"
                    "```bash\n"
                    "cd /home/runner/actions-runner\n"
                    "sudo ./svc.sh stop\n"
                    "sudo ./svc.sh start\n"
                    "```\n"
                    "\n"
                    "The `runner` user isn't in the `docker` group, so it can't talk to the daemon socket. "
                    "Group membership is read when a process starts, hence the service restart.\n"
                    "\n"
                    "Be aware that docker group membership is effectively root on that machine: a job can "
                    "mount `/` into a container. On a private repo with only your team's code, that's an "
                    "acceptable trade, but it's one more reason to keep the repo private."
                ),
                u(
                    "Fixed. Is there any risk in leaving the NUC on 24/7? It's in the office, which is locked "
                    "at night, but still."
                ),
                a(
                    "```cron\n"
                    "# /etc/cron.d/runner-cleanup\n"
                    "# Sunday 03:00: drop images and build cache not used in a week\n"
                    '0 3 * * 0  runner  docker system prune --all --force --filter "until=168h" >> '
                    "/var/log/runner-cleanup.log 2>&1\n"
                    "```\n"
                    "\n"
                    "Physically it's fine; a NUC idles at a few watts. The real risks are software ones:\n"
                    "\n"
                    "- **State leaks between jobs.** Unlike hosted runners, the workspace and Docker state "
                    "persist. A job that leaves a container running or a file behind can affect the next one. "
                    "`actions/checkout` cleans the workspace, but Docker is on you, hence the cron job above.\n"
                    "- **Disk filling up**, covered by the prune and the health check.\n"
                    "- **Updates.** The runner binary self-updates; the OS doesn't. Turn on "
                    "`unattended-upgrades` for security patches.\n"
                    "- **Power cuts and reboots.** The systemd unit restarts it, but if it's down nobody gets "
                    "told. Worth a small watchdog later."
                ),
                u("ok. I think that's enough infra for one week, my head is full"),
                a(
                    "Fair. This week you got parallel tests, a runner on the NUC and a formal approval gate "
                    "for production. Next natural steps when you're back: move the image job to the NUC for "
                    "good (its layer cache then lives on local disk and survives between runs) and add the "
                    "npm cache to the frontend job."
                ),
            ],
        ),
        Session(
            "2026-01-29T16:20:00Z",
            [
                u(
                    "Today: staging. Our staging database is a Postgres 13 instance on RDS, db.t3.small, and "
                    "it went down yesterday afternoon. Turns out the disk filled up with WAL files because a "
                    "replication slot from an old Debezium experiment was never dropped. Nobody noticed until "
                    "the app started throwing 500s.",
                    key="staging-13-wal",
                ),
                a(
                    "```sql\n"
                    "SELECT slot_name,\n"
                    "       plugin,\n"
                    "       active,\n"
                    "       pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)) AS "
                    "retained_wal\n"
                    "FROM pg_replication_slots\n"
                    "ORDER BY pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn) DESC;\n"
                    "```\n"
                    "\n"
                    "```sql\n"
                    "SELECT pg_drop_replication_slot('debezium_larkspur');\n"
                    "```\n"
                    "\n"
                    "An inactive logical slot is one of the classic ways to fill a Postgres disk: the server "
                    "keeps every WAL segment the slot hasn't confirmed, forever. The first query shows how "
                    "much WAL each slot is holding back; `active = f` with a large `retained_wal` is your "
                    "culprit. Replace the slot name in the second query with whatever the first one shows.\n"
                    "\n"
                    "On RDS the space comes back within a few minutes of dropping the slot, once the next "
                    "checkpoint removes the old segments. If the instance is in `storage-full` state you may "
                    "have to bump the allocated storage first just to be able to connect."
                ),
                u(
                    "Dropped the slot, 14 GB freed almost instantly. Can we add a check to CI that catches "
                    "this? Or is that the wrong place"
                ),
                a(
                    "```bash\n"
                    "aws cloudwatch put-metric-alarm \\\n"
                    "  --alarm-name larkspur-staging-free-storage \\\n"
                    "  --namespace AWS/RDS \\\n"
                    "  --metric-name FreeStorageSpace \\\n"
                    "  --dimensions Name=DBInstanceIdentifier,Value=larkspur-staging \\\n"
                    "  --statistic Minimum \\\n"
                    "  --period 300 \\\n"
                    "  --evaluation-periods 2 \\\n"
                    "  --threshold 4000000000 \\\n"
                    "  --comparison-operator LessThanThreshold \\\n"
                    "  --alarm-actions arn:aws:sns:eu-central-1:123456789012:larkspur-alerts\n"
                    "```\n"
                    "\n"
                    "Wrong place, I'd say. CI runs when someone pushes; the disk fills up on its own "
                    "schedule. This is a monitoring job: a CloudWatch alarm when free storage drops below 4 "
                    "GB, sent to an SNS topic that emails you or posts to chat. Replace the account number "
                    "and topic with yours.\n"
                    "\n"
                    "Two more alarms worth having on the same instance: `OldestReplicationSlotLag` (RDS "
                    "publishes it for exactly this case) and `CPUCreditBalance`, because t3 instances get "
                    "throttled hard when credits run out."
                ),
                u(
                    "Good. Different topic: we want a local staging-like setup with docker compose so people "
                    "stop testing against real staging. Can you write one? App, postgres, redis, celery "
                    "worker."
                ),
                a(
                    "```yaml\n"
                    "# compose.staging-local.yml\n"
                    "name: larkspur-local\n"
                    "\n"
                    "services:\n"
                    "  db:\n"
                    "    image: postgres:13\n"
                    "    environment:\n"
                    "      POSTGRES_USER: larkspur\n"
                    "      POSTGRES_PASSWORD: larkspur\n"
                    "      POSTGRES_DB: larkspur\n"
                    "    volumes:\n"
                    "      - db-data:/var/lib/postgresql/data\n"
                    "    ports:\n"
                    '      - "5433:5432"   # 5433 so it doesn\'t clash with a Postgres installed on the '
                    "laptop\n"
                    "    healthcheck:\n"
                    '      test: ["CMD-SHELL", "pg_isready -U larkspur"]\n'
                    "      interval: 5s\n"
                    "      retries: 10\n"
                    "\n"
                    "  redis:\n"
                    "    image: redis:7-alpine\n"
                    "\n"
                    "  web:\n"
                    "    build: .\n"
                    "    command: gunicorn larkspur.wsgi -b 0.0.0.0:8000 -w 2 --reload\n"
                    "    env_file: .env.local\n"
                    "    ports:\n"
                    "      - target: 8000\n"
                    "        published: 8081\n"
                    "    depends_on:\n"
                    "      db:\n"
                    "        condition: service_healthy\n"
                    "      redis:\n"
                    "        condition: service_started\n"
                    "    volumes:\n"
                    "      - .:/app\n"
                    "\n"
                    "  worker:\n"
                    "    build: .\n"
                    "    command: celery -A larkspur worker -l info\n"
                    "    env_file: .env.local\n"
                    "    depends_on: [db, redis]\n"
                    "    volumes:\n"
                    "      - .:/app\n"
                    "\n"
                    "volumes:\n"
                    "  db-data:\n"
                    "```\n"
                    "\n"
                    "Bring it up with `docker compose -f compose.staging-local.yml up --build`. The web "
                    "container's port is published on the host so it doesn't fight with `runserver` if "
                    "someone has that running too, and Postgres goes to 5433 for the same reason. The source "
                    "is mounted and gunicorn runs with `--reload`, so code changes show up without a rebuild.",
                    key="code-port",
                ),
                u(
                    "Celery worker keeps restarting:\n"
                    "\n"
                    "```\n"
                    "worker-1  | [2026-01-29 16:48:02,114: ERROR/MainProcess] consumer: Cannot connect to "
                    "redis://localhost:6379/0: Error 111 connecting to localhost:6379. Connection refused..\n"
                    "worker-1  | Trying again in 8.00 seconds... (4/100)\n"
                    "```"
                ),
                a(
                    "```bash\n"
                    "# .env.local\n"
                    "DATABASE_URL=postgres://larkspur:larkspur@db:5432/larkspur\n"
                    "CELERY_BROKER_URL=redis://redis:6379/0\n"
                    "CELERY_RESULT_BACKEND=redis://redis:6379/1\n"
                    "```\n"
                    "\n"
                    "Inside a container, `localhost` is the container itself, not your laptop and not the "
                    "other services. Compose puts all services on one network where each is reachable by its "
                    "service name, so the broker URL has to say `redis`, not `localhost`. Same for the "
                    "database: `db:5432` from inside, `localhost:5433` from your laptop."
                ),
                u(
                    "yep that was it. Another flaky one today: test_invoice_pdf_render, times out on the "
                    "hosted runners only, never locally and never on the NUC. Quarantine it too please, I'll "
                    "dig in later.",
                    key="mt-flaky-2",
                ),
                a(
                    "```python\n"
                    '@pytest.mark.quarantine(reason="times out on hosted runners; suspect font discovery in '
                    'WeasyPrint")\n'
                    "```\n"
                    "\n"
                    "Add that decorator on the test and it moves to the quarantine job. A guess for when you "
                    "dig in: WeasyPrint builds a font cache through fontconfig on first use. On a fresh "
                    "hosted VM there's no cache, and with many fonts installed that first `fc-cache` can take "
                    "a long time; on the NUC and your laptop the cache already exists. If that's it, running "
                    "`fc-cache -f` in a setup step, or shipping only the two fonts the invoice uses, should "
                    "make it fast and stable."
                ),
                u(
                    "I'm off next week btw, my sister's getting married in Porto, so no CI for me for a bit 😄",
                    key="sf-wedding",
                ),
                a(
                    "Congratulations to your sister! Enjoy it.\n"
                    "\n"
                    "Since you're the one who knows the new setup best, it might be worth leaving Tomasz a "
                    "short handover so nothing waits for you:\n"
                    "\n"
                    "- where the runner lives and how to restart it (`sudo ./svc.sh stop`/`start` in "
                    "`/home/runner/actions-runner`)\n"
                    "- what the quarantine job is and that it never blocks merges\n"
                    "- the new Dockerfile layer order, so nobody moves `COPY . .` back to the top\n"
                    "- the CloudWatch alarm, and who it emails"
                ),
                u("Good idea, can you turn that into a short markdown note I can paste into Notion?"),
                a(
                    "```markdown\n"
                    "# CI handover (Noor away for a week)\n"
                    "\n"
                    "## Self-hosted runner (the NUC under Kofi's desk)\n"
                    "- Service user: `runner`, install dir `/home/runner/actions-runner`\n"
                    "- Restart: `sudo ./svc.sh stop` then `sudo ./svc.sh start` in that dir\n"
                    "- Health: `./runner-health.sh` prints `ok` or what's wrong\n"
                    "- Cleanup runs Sundays 03:00 (`/etc/cron.d/runner-cleanup`)\n"
                    "\n"
                    "## Quarantine\n"
                    "- Tests marked `@pytest.mark.quarantine` are skipped in `backend` and run in the "
                    "`quarantine` job\n"
                    "- That job never blocks a merge; its summary lists what's in quarantine\n"
                    "\n"
                    "## Docker image\n"
                    "- Dependencies are installed before `COPY . .` on purpose; keep it that way or the cache "
                    "stops working\n"
                    "- Images build on `main` only, cache lives in the GitHub Actions cache\n"
                    "\n"
                    "## Staging\n"
                    "- CloudWatch alarm `larkspur-staging-free-storage` emails the alerts list below 4 GB "
                    "free\n"
                    "- If staging's disk fills again, check `pg_replication_slots` first\n"
                    "```"
                ),
                u("perfect, thanks. see you in a couple of weeks"),
                a(
                    "Have a wonderful time. When you're back, the natural next things are the npm cache and a "
                    "look at that PDF test."
                ),
            ],
        ),
    ],
    questions=[
        Question(
            "Add a step that uploads the coverage report as an artifact.",
            "full commit SHA",
            ["si-sha"],
            "standing-instruction",
        ),
        Question(
            "Why is the frontend lint job slower than the backend one?",
            "code first",
            ["si-codefirst"],
            "standing-instruction",
        ),
        Question(
            "Give the new hires one command to run lint and tests locally.",
            "plain bash scripts",
            ["pref-nomake"],
            "preference",
        ),
        Question("Where was my sister's wedding?", "Porto", ["sf-wedding"], "single-fact"),
        Question(
            "What did you say was the root cause of the calendar sync flake?",
            "naive local date",
            ["sf-calendar-cause"],
            "single-fact",
        ),
        Question("Which host port does the local compose setup publish the web app on?", "8081", ["code-port"], "code"),
        Question("Which files is the pip cache key computed from?", "requirements/*.txt", ["code-pipkey"], "code"),
    ],
)
