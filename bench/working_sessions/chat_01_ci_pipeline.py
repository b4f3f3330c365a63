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
                u(
                    "Small request: when you give me YAML, don't use anchors or aliases. Half the team "
                    "doesn't know them and they make the files hard to review.",
                    key="si-noanchors",
                ),
                a(
                    "Fine by me, plain keys only. The image job:\n"
                    "\n"
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
                    "https://github.com/actions/runner/releases/download/v2.321.0/actions-runner-linu"
                    "x-x64-2.321.0.tar.gz\n"
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
        Session(
            "2026-02-12T09:40:00Z",
            [
                u(
                    "Back from the wedding, it was lovely, and now I'm catching up on two weeks of Slack. A "
                    "few things changed while I was away. Kofi and Tomasz decided deploys go out on Tuesday "
                    "afternoons from now on, because Thursday deploys kept bleeding into Friday firefighting "
                    "and nobody wants to debug prod on a Friday. Ines rewrote half the booking calendar in "
                    "the frontend, so expect the frontend job to be busier. And apparently the NUC rebooted "
                    "twice during a power cut in the office and the runner didn't come back the second time, "
                    "so jobs sat queued for an hour before anyone noticed.",
                    key="ku-deploy-2",
                ),
                a(
                    'Welcome back. The runner one is worth fixing properly, because "queued for an hour '
                    'before anyone noticed" will keep happening otherwise. Two parts.\n'
                    "\n"
                    "Make the service restart itself even when it exits cleanly, which is what often happens "
                    "after a network hiccup at boot:\n"
                    "\n"
                    "```ini\n"
                    "# sudo systemctl edit actions.runner.brackenridge-larkspur.*.service\n"
                    "[Unit]\n"
                    "After=network-online.target docker.service\n"
                    "Wants=network-online.target\n"
                    "\n"
                    "[Service]\n"
                    "Restart=always\n"
                    "RestartSec=15\n"
                    "```\n"
                    "\n"
                    "And get told when it's offline, from outside the NUC (a watchdog on the machine itself "
                    "can't report a dead machine):\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/runner-watchdog.yml\n"
                    "name: Runner watchdog\n"
                    "on:\n"
                    "  schedule:\n"
                    '    - cron: "*/15 7-19 * * 1-5"\n'
                    "jobs:\n"
                    "  check:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    steps:\n"
                    "      - name: Is the NUC online?\n"
                    "        env:\n"
                    "          GH_TOKEN: ${{ secrets.RUNNER_ADMIN_TOKEN }}\n"
                    "        run: |\n"
                    "          status=$(gh api repos/${{ github.repository }}/actions/runners \\\n"
                    "            --jq '[.runners[] | select(.labels[].name == \"nuc\")][0].status')\n"
                    '          echo "runner status: $status"\n'
                    '          test "$status" = "online"\n'
                    "```\n"
                    "\n"
                    "Listing runners needs a token with admin rights on the repo, so `GITHUB_TOKEN` won't do; "
                    'a fine-grained token with "Administration: read" is enough. A failed scheduled run '
                    "emails whoever last edited the workflow, which is a crude but working alert."
                ),
                u(
                    "Whenever you suggest a commit message, use Conventional Commits — feat:, ci:, chore: and "
                    "so on. Our release tooling parses them.",
                    key="si-commits",
                ),
                a(
                    "Will do. For the two changes above, for example:\n"
                    "\n"
                    "```text\n"
                    "ci: restart the self-hosted runner service on any exit\n"
                    "ci: add a scheduled watchdog for the NUC runner\n"
                    "```\n"
                    "\n"
                    "If a change touches both, split it into two commits; the release notes read better that "
                    "way."
                ),
                u(
                    'I wrote the migration check job myself while you were "away" (ha). It runs the '
                    "migrations against a copy of staging. Can you review?\n"
                    "\n"
                    "```yaml\n"
                    "  migration-check:\n"
                    "    runs-on: [self-hosted, nuc]\n"
                    "    if: github.event_name == 'pull_request'\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "      - run: pip install -r requirements/base.txt\n"
                    "      - name: Migrate a fresh copy of staging\n"
                    "        env:\n"
                    "          DATABASE_URL: ${{ secrets.STAGING_DATABASE_URL }}\n"
                    "        run: |\n"
                    "          ./scripts/clone-staging-db.sh larkspur_migcheck\n"
                    '          DATABASE_URL="${DATABASE_URL%/*}/larkspur_migcheck" python manage.py migrate '
                    "--noinput\n"
                    "          python manage.py migrate --check\n"
                    "```\n"
                    "\n"
                    "I put the secret on the staging environment, not the repo, like you said for prod."
                ),
                a(
                    "Nicely done, and scoping the secret to the environment is right. Three things:\n"
                    "\n"
                    "1. **The job never gets the secret.** Environment secrets are only released to jobs that "
                    "declare the environment. As written, the expression evaluates to an empty string and the "
                    "clone script will fail in a confusing way. Add one line:\n"
                    "\n"
                    "```diff\n"
                    "   migration-check:\n"
                    "     runs-on: [self-hosted, nuc]\n"
                    "+    environment: staging\n"
                    "     if: github.event_name == 'pull_request'\n"
                    "```\n"
                    "\n"
                    "2. **`migrate --check` after `migrate` is a no-op.** It exits non-zero if there are "
                    "unapplied migrations, and you just applied them all. What you probably want instead is "
                    "`makemigrations --check --dry-run`, which fails when someone changed a model but forgot "
                    "to commit the migration. Run it first, before touching the database.\n"
                    "\n"
                    "3. **Clean up the copy** with an `if: always()` step that drops `larkspur_migcheck`. "
                    "Otherwise a failed run leaves it behind and the next clone fails because the database "
                    "already exists.\n"
                    "\n"
                    "Pull requests from forks never get secrets, so there's no leak risk there; on a private "
                    "repo without forks it doesn't come up anyway."
                ),
                u(
                    "Next: Tomasz wants the full Python matrix (3.11, 3.12, 3.13) but not on every PR, it "
                    "would triple the runner time. Nightly?"
                ),
                a(
                    "Nightly is the usual compromise: PRs test the version you deploy, the night run tells "
                    "you early when a newer one breaks something.\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/nightly.yml\n"
                    "name: Nightly matrix\n"
                    "on:\n"
                    "  schedule:\n"
                    '    - cron: "17 2 * * *"   # off the hour: scheduled runs at :00 get delayed when '
                    "everyone's cron fires\n"
                    "  workflow_dispatch:\n"
                    "\n"
                    "jobs:\n"
                    "  backend:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    strategy:\n"
                    "      fail-fast: false\n"
                    "      matrix:\n"
                    '        python: ["3.11", "3.12", "3.13"]\n'
                    "    services:\n"
                    "      postgres:\n"
                    "        image: postgres:13\n"
                    "        env:\n"
                    "          POSTGRES_USER: larkspur\n"
                    "          POSTGRES_PASSWORD: larkspur\n"
                    "          POSTGRES_DB: larkspur\n"
                    '        ports: ["5432:5432"]\n'
                    "    env:\n"
                    "      DATABASE_URL: postgres://larkspur:larkspur@localhost:5432/larkspur\n"
                    "      DJANGO_SETTINGS_MODULE: larkspur.settings.ci\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "      - uses: actions/setup-python@0b93645e9fea7318ecaed2b359559ac225c90a2b # v5.3.0\n"
                    "        with:\n"
                    "          python-version: ${{ matrix.python }}\n"
                    "          cache: pip\n"
                    "      - run: pip install -r requirements/dev.txt\n"
                    "      - run: pytest -n auto -q\n"
                    "```\n"
                    "\n"
                    "`fail-fast: false` lets all three versions finish even if one fails, so one morning "
                    "tells you everything. Scheduled workflows run from the default branch only, so the file "
                    "has to be merged to `main` before it fires. I put the nightly on hosted runners so it "
                    "doesn't compete with daytime jobs if the NUC is busy with something left over.",
                    key="code-cron",
                ),
                u(
                    "First nightly failed on 3.13 only:\n"
                    "\n"
                    "```\n"
                    "  × Getting requirements to build wheel did not run successfully.\n"
                    "  │ exit code: 1\n"
                    "  ╰─> [23 lines of output]\n"
                    "      Error: pg_config executable not found.\n"
                    "\n"
                    "      pg_config is required to build psycopg2 from source.  Please add the directory\n"
                    "      containing pg_config to $PATH\n"
                    "```"
                ),
                a(
                    "There's no pre-built `psycopg2` wheel for 3.13 at the version you've pinned, so pip "
                    "falls back to compiling from source, which needs the Postgres client headers. Options, "
                    "from least to most work:\n"
                    "\n"
                    "1. Install the headers in the nightly job only:\n"
                    "\n"
                    "```yaml\n"
                    "      - name: Postgres client headers (for building psycopg2)\n"
                    "        run: |\n"
                    "          sudo apt-get update\n"
                    "          sudo apt-get install -y libpq-dev\n"
                    "```\n"
                    "\n"
                    "2. Bump `psycopg2` to a version that ships 3.13 wheels.\n"
                    "3. Move to `psycopg` 3, which Django supports natively; a bigger change, but it's where "
                    "things are heading."
                ),
                u(
                    "We're on psycopg2 still and migrating is a whole thing, so option 1 for now. Green on "
                    "all three after that."
                ),
                a(
                    "Good. Make a note somewhere that the headers step exists only for psycopg2 from source, "
                    "so whoever bumps the version later knows it can go. In a commit message, say:\n"
                    "\n"
                    "```text\n"
                    "ci: install libpq headers in the nightly matrix for psycopg2 on 3.13\n"
                    "```"
                ),
                u(
                    "Where should nightly failures go? Deploy messages go to #larkspur-deploys and I don't "
                    "want to spam that channel with nightly noise.",
                    key="sf-slack",
                ),
                a(
                    "A separate incoming webhook per purpose is the simplest way to keep them apart, because "
                    "each Slack webhook is bound to the channel chosen when it was created. Make a second one "
                    "for nightly results, store it as a repo secret, and post only on failure:\n"
                    "\n"
                    "```yaml\n"
                    "  notify:\n"
                    "    needs: [backend]\n"
                    "    if: failure()\n"
                    "    runs-on: ubuntu-latest\n"
                    "    steps:\n"
                    "      - name: Tell Slack the nightly failed\n"
                    "        env:\n"
                    "          WEBHOOK: ${{ secrets.SLACK_NIGHTLY_WEBHOOK }}\n"
                    "          RUN_URL: ${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ "
                    "github.run_id }}\n"
                    "        run: |\n"
                    '          payload=$(jq -n --arg url "$RUN_URL" \\\n'
                    "            '{text: (\"Nightly matrix failed: \" + $url)}')\n"
                    "          curl -fsS -X POST -H 'Content-Type: application/json' -d \"$payload\" "
                    '"$WEBHOOK"\n'
                    "```\n"
                    "\n"
                    "Plain `curl` and `jq` instead of a Slack action means one fewer third-party action to "
                    "pin and review. `jq -n` builds the JSON so a URL with odd characters can't break the "
                    "payload."
                ),
                u(
                    "Works. Weird question: should scheduled runs use the NUC to save minutes? We're on the "
                    "Team plan and not near the limit yet."
                ),
                a(
                    "If you're not near the limit, I'd leave the nightly on hosted runners. Two reasons: it "
                    "tests in a clean environment, which catches things the long-lived NUC can hide (a system "
                    "package someone installed by hand, a warm cache masking a broken download), and it "
                    "doesn't depend on the NUC being up at 2 in the morning after a power cut.\n"
                    "\n"
                    "Revisit it if the bill starts to matter. The Actions usage page under the org's billing "
                    "settings shows minutes per workflow, so you'll see it coming."
                ),
                u("ok, leaving it. thanks, that's the backlog from my week off mostly cleared"),
                a(
                    "Nice. Open items I know of: the npm cache for the frontend job, and the two quarantined "
                    "tests, one of which has a fix waiting for Tomasz's confirmation."
                ),
            ],
        ),
        Session(
            "2026-02-19T11:00:00Z",
            [
                u(
                    "Good week. Tomasz finished moving the backend and image jobs to the NUC for good, the "
                    "layer cache is warm most of the time, and with xdist on 4 workers a full run on a normal "
                    "PR is six minutes now. The frontend job is the slowest part again, mostly because of "
                    "Ines' new calendar tests. Also, Priyanka (our part-time QA) asked whether we could get a "
                    "preview environment per PR so she can test a branch without waiting for it to land on "
                    "staging. Is that realistic for a team our size?",
                    key="ku-build-3",
                ),
                a(
                    "Realistic, yes, as long as you keep it boring. The hosted platforms (Render, Fly, Heroku "
                    "review apps) make it easy but they're another bill and another place your app has to "
                    "run. With a team of your size I'd go for one small VM running Docker and a reverse "
                    "proxy, and one compose project per PR:\n"
                    "\n"
                    "```yaml\n"
                    "# compose.preview.yml, started once per PR with -p pr-<number>\n"
                    "services:\n"
                    "  web:\n"
                    "    image: ghcr.io/brackenridge/larkspur:${IMAGE_TAG}\n"
                    "    env_file: /srv/previews/common.env\n"
                    "    environment:\n"
                    "      DATABASE_URL: postgres://larkspur:larkspur@db:5432/larkspur\n"
                    "    labels:\n"
                    "      - traefik.enable=true\n"
                    "      - "
                    "traefik.http.routers.${COMPOSE_PROJECT_NAME}.rule=Host(`${COMPOSE_PROJECT_NAME}."
                    "preview.larkspur.health`)\n"
                    "      - traefik.http.routers.${COMPOSE_PROJECT_NAME}.tls.certresolver=le\n"
                    "    networks: [default, proxy]\n"
                    "  db:\n"
                    "    image: postgres:13\n"
                    "    environment:\n"
                    "      POSTGRES_USER: larkspur\n"
                    "      POSTGRES_PASSWORD: larkspur\n"
                    "      POSTGRES_DB: larkspur\n"
                    "\n"
                    "networks:\n"
                    "  proxy:\n"
                    "    external: true\n"
                    "```\n"
                    "\n"
                    "Traefik watches the Docker socket and routes `pr-123.preview.larkspur.health` to the "
                    "right container as soon as it starts, with a Let's Encrypt certificate from a wildcard "
                    "DNS record. Each preview gets its own throwaway database seeded from fixtures, never a "
                    "copy of real data."
                ),
                u(
                    "Let's do the VM + compose thing. I spun up a CX22 on Hetzner for it, called it boulder "
                    "(Kofi names everything after climbing stuff, you may have noticed).",
                    key="mt-boulder",
                ),
                a(
                    "The deploy side, from the workflow after the image is pushed:\n"
                    "\n"
                    "```yaml\n"
                    "  preview:\n"
                    "    if: github.event_name == 'pull_request'\n"
                    "    needs: [image]\n"
                    "    runs-on: [self-hosted, nuc]\n"
                    "    environment:\n"
                    "      name: preview\n"
                    "      url: https://pr-${{ github.event.number }}.preview.larkspur.health\n"
                    "    steps:\n"
                    "      - name: Start or update the preview\n"
                    "        env:\n"
                    "          SSH_KEY: ${{ secrets.PREVIEW_SSH_KEY }}\n"
                    "          HOST: ${{ vars.PREVIEW_HOST }}\n"
                    "          PR: ${{ github.event.number }}\n"
                    "          TAG: ${{ github.sha }}\n"
                    "        run: |\n"
                    "          install -m 600 /dev/null ~/.ssh/preview_key\n"
                    "          printf '%s\\n' \"$SSH_KEY\" > ~/.ssh/preview_key\n"
                    '          ssh -i ~/.ssh/preview_key -o StrictHostKeyChecking=accept-new "deploy@$HOST" '
                    "\\\n"
                    '            "IMAGE_TAG=$TAG docker compose -p pr-$PR -f '
                    '/srv/previews/compose.preview.yml up -d --pull always"\n'
                    "```\n"
                    "\n"
                    "This needs the image job to run for PRs too, not just on `main`, so change its `if:`. "
                    'The `url:` on the environment makes GitHub show a "View deployment" button on the PR.'
                ),
                u(
                    "And please, no emoji in anything a bot posts. Those rocket-and-party-popper PR comments "
                    "drive me up the wall.",
                    key="pref-noemoji",
                ),
                a(
                    "Fair enough, noted. Let's get the teardown in place before any bot says anything at all; "
                    "previews that never get removed are the usual way this setup goes wrong:\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/preview-teardown.yml\n"
                    "name: Preview teardown\n"
                    "on:\n"
                    "  pull_request:\n"
                    "    types: [closed]\n"
                    "jobs:\n"
                    "  teardown:\n"
                    "    runs-on: [self-hosted, nuc]\n"
                    "    steps:\n"
                    "      - env:\n"
                    "          SSH_KEY: ${{ secrets.PREVIEW_SSH_KEY }}\n"
                    "          HOST: ${{ vars.PREVIEW_HOST }}\n"
                    "          PR: ${{ github.event.number }}\n"
                    "        run: |\n"
                    "          install -m 600 /dev/null ~/.ssh/preview_key\n"
                    "          printf '%s\\n' \"$SSH_KEY\" > ~/.ssh/preview_key\n"
                    '          ssh -i ~/.ssh/preview_key "deploy@$HOST" \\\n'
                    '            "docker compose -p pr-$PR -f /srv/previews/compose.preview.yml down '
                    '--volumes"\n'
                    "```\n"
                    "\n"
                    "`closed` fires for both merged and abandoned PRs, and `--volumes` drops the preview's "
                    "database with it."
                ),
                u(
                    "```\n"
                    'Run ssh -i ~/.ssh/preview_key -o StrictHostKeyChecking=accept-new "deploy@$HOST" ...\n'
                    'Load key "/home/runner/.ssh/preview_key": invalid format\n'
                    "deploy@***: Permission denied (publickey).\n"
                    "Error: Process completed with exit code 255.\n"
                    "```"
                ),
                a(
                    '"invalid format" means the file isn\'t a private key ssh can parse. The usual suspects:\n'
                    "\n"
                    "1. The secret holds the **public** key (`ssh-ed25519 AAAA... comment`) instead of the "
                    "private one.\n"
                    "2. The private key was pasted without its final newline, or with Windows line endings.\n"
                    "3. The key is passphrase-protected.\n"
                    "\n"
                    "Check what's actually in the secret without printing it:\n"
                    "\n"
                    "```bash\n"
                    "head -c 36 ~/.ssh/preview_key; echo\n"
                    'ssh-keygen -y -f ~/.ssh/preview_key > /dev/null && echo "parses fine"\n'
                    "```\n"
                    "\n"
                    "The first line should read `-----BEGIN OPENSSH PRIVATE KEY-----`."
                ),
                u("It was the key — I'd pasted the .pub. Classic."),
                a(
                    "Happens to everyone at least once. While you're in there, give that key the narrowest "
                    "rights on the preview host: a `deploy` user in the `docker` group and nothing else, and "
                    "in its `authorized_keys` line add `restrict` so it can't forward ports or get a pty."
                ),
                u("How do we stop previews piling up if a PR just sits open for weeks? Some of ours do."),
                a(
                    "A nightly cleanup on the preview host that removes previews whose containers haven't "
                    "been recreated in a week:\n"
                    "\n"
                    "```bash\n"
                    "#!/usr/bin/env bash\n"
                    "# /usr/local/bin/prune-previews.sh, run daily from cron as deploy\n"
                    "set -euo pipefail\n"
                    "max_age_days=7\n"
                    "now=$(date +%s)\n"
                    "\n"
                    "docker compose ls --all --format json |\n"
                    "  jq -r '.[] | select(.Name | startswith(\"pr-\")) | .Name' |\n"
                    "while read -r project; do\n"
                    '  created=$(docker ps -a --filter "label=com.docker.compose.project=$project" \\\n'
                    "    --format '{{.CreatedAt}}' | head -1 | cut -d' ' -f1,2)\n"
                    '  [[ -z "$created" ]] && continue\n'
                    '  age_days=$(( (now - $(date -d "$created" +%s)) / 86400 ))\n'
                    "  if (( age_days > max_age_days )); then\n"
                    '    echo "removing $project (idle ${age_days}d)"\n'
                    '    docker compose -p "$project" -f /srv/previews/compose.preview.yml down --volumes\n'
                    "  fi\n"
                    "done\n"
                    "```\n"
                    "\n"
                    "A push to the PR recreates the containers and resets the clock, so an active PR never "
                    "gets pruned. Someone who comes back to an old PR just pushes and gets a fresh preview.",
                    key="rc-req-prune",
                ),
                u("Frontend job: 4m30s total, npm ci alone is 1m50s of that. Cache?"),
                a(
                    "```yaml\n"
                    "      - uses: actions/setup-node@39370e3970a6d050c480ffad4ff0ed4d3fdee5af # v4.1.0\n"
                    "        with:\n"
                    "          node-version: 20\n"
                    "          cache: npm\n"
                    "          cache-dependency-path: frontend/package-lock.json\n"
                    "```\n"
                    "\n"
                    "That caches npm's download cache (`~/.npm`), keyed on the lockfile. `npm ci` still "
                    "deletes and rebuilds `node_modules`, but from local tarballs instead of the network, "
                    "which typically takes `npm ci` from around two minutes to 20 or 30 seconds.\n"
                    "\n"
                    "You could cache `node_modules` itself for more speed, but then you're trusting a cached "
                    "tree instead of a clean install, and that's exactly the sort of thing that hides a "
                    "broken lockfile. I wouldn't for CI."
                ),
                u("thx. Friday tomorrow and I'm going bouldering with Ines after work, so my brain has already left"),
                a(
                    "Enjoy. When you're back: the preview comment on the PR is the one piece of the preview "
                    "flow not done yet."
                ),
            ],
        ),
        Session(
            "2026-03-03T08:45:00Z",
            [
                u(
                    "Morning. Staging was down for most of Sunday because the TLS certificate expired. "
                    "certbot on the staging box had been failing silently since we moved DNS to a new "
                    "provider in January, and the HTTP challenge stopped working when the proxy rules "
                    "changed.",
                    key="mt-outage-2",
                ),
                a(
                    "Two fixes: make renewal not depend on the proxy, and make a failing renewal loud long "
                    "before expiry.\n"
                    "\n"
                    "For the first, the DNS challenge doesn't care about HTTP routing at all. If the new DNS "
                    "provider has a certbot plugin (most big ones do), something like:\n"
                    "\n"
                    "```bash\n"
                    "sudo apt-get install -y python3-certbot-dns-cloudflare\n"
                    "sudo certbot certonly \\\n"
                    "  --dns-cloudflare \\\n"
                    "  --dns-cloudflare-credentials /etc/letsencrypt/cloudflare.ini \\\n"
                    "  -d staging.larkspur.health\n"
                    "sudo certbot renew --dry-run\n"
                    "```\n"
                    "\n"
                    "Swap the plugin for your provider. The dry run is the important line: it proves renewal "
                    "works today instead of in 60 days.\n"
                    "\n"
                    "For the second, check expiry from the outside on a schedule:\n"
                    "\n"
                    "```bash\n"
                    "#!/usr/bin/env bash\n"
                    "# cert-days-left.sh HOST [MIN_DAYS]\n"
                    "set -euo pipefail\n"
                    "host=$1\n"
                    "min_days=${2:-14}\n"
                    'end=$(echo | openssl s_client -servername "$host" -connect "$host:443" 2>/dev/null |\n'
                    "  openssl x509 -noout -enddate | cut -d= -f2)\n"
                    'days=$(( ($(date -d "$end" +%s) - $(date +%s)) / 86400 ))\n'
                    'echo "$host: certificate valid for $days more days"\n'
                    "(( days >= min_days ))\n"
                    "```"
                ),
                u("Put the check in the nightly workflow or its own thing?"),
                a(
                    "Its own workflow. The nightly is about your code; this is about infrastructure, and you "
                    "don't want a certificate warning to look like a test failure or the other way round.\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/cert-check.yml\n"
                    "name: Certificate check\n"
                    "on:\n"
                    "  schedule:\n"
                    '    - cron: "40 6 * * *"\n'
                    "  workflow_dispatch:\n"
                    "jobs:\n"
                    "  check:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    strategy:\n"
                    "      fail-fast: false\n"
                    "      matrix:\n"
                    "        host: [app.larkspur.health, staging.larkspur.health]\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    '      - run: ./scripts/cert-days-left.sh "${{ matrix.host }}" 14\n'
                    "```\n"
                    "\n"
                    "Fourteen days of warning is plenty: Let's Encrypt certificates renew at 30 days left, so "
                    "if you get to 14 a renewal has failed at least a couple of times."
                ),
                u(
                    "Also big news: over the weekend Tomasz did the staging database upgrade. We're on "
                    "Postgres 16 now, same instance class. Prod follows in April if staging stays happy.",
                    key="ku-pg-2",
                ),
                a(
                    "Then CI should test against the same major version, otherwise you're testing against "
                    "something you no longer run. In the `backend` job, the nightly and the local compose "
                    "file:\n"
                    "\n"
                    "```diff\n"
                    "     services:\n"
                    "       postgres:\n"
                    "-        image: postgres:13\n"
                    "+        image: postgres:16\n"
                    "```\n"
                    "\n"
                    "Until prod is upgraded too, you're in the awkward spot where staging and prod differ. "
                    "The nightly is a cheap place to cover both for a few weeks:\n"
                    "\n"
                    "```yaml\n"
                    "    strategy:\n"
                    "      fail-fast: false\n"
                    "      matrix:\n"
                    '        python: ["3.11", "3.12", "3.13"]\n'
                    '        pg: ["13", "16"]\n'
                    "    services:\n"
                    "      postgres:\n"
                    "        image: postgres:${{ matrix.pg }}\n"
                    "```\n"
                    "\n"
                    "Drop the old version from the matrix the day prod moves."
                ),
                u(
                    "Bumped the image and now a bunch of tests fail at setup:\n"
                    "\n"
                    "```\n"
                    "django.db.utils.ProgrammingError: permission denied for schema public\n"
                    'LINE 1: CREATE TABLE "django_migrations" ("id" bigint NOT NULL PRIMA...\n'
                    "```\n"
                    "\n"
                    "worked fine on the old version"
                ),
                a(
                    "That's a deliberate change in Postgres 15: ordinary users no longer get `CREATE` on the "
                    "`public` schema by default. Your CI user owns the database but not the schema, which "
                    "belongs to the bootstrap superuser.\n"
                    "\n"
                    "In CI, the least surprising fix is to make the app user the owner of the schema right "
                    "after the service starts:\n"
                    "\n"
                    "```yaml\n"
                    "      - name: Give the app user the public schema\n"
                    "        env:\n"
                    "          PGPASSWORD: postgres\n"
                    "        run: |\n"
                    "          psql -h localhost -U postgres -d larkspur \\\n"
                    "            -c 'ALTER SCHEMA public OWNER TO larkspur;'\n"
                    "```\n"
                    "\n"
                    "That requires the service to have a separate superuser, so set `POSTGRES_USER: postgres` "
                    "with its own password and create `larkspur` in an init step. Or, simpler for CI only, "
                    "run the tests as the superuser. On staging, Tomasz must have hit the same thing during "
                    "the upgrade; worth asking what he did there so CI matches."
                ),
                u(
                    "Sorted, he'd done the ALTER SCHEMA there too. Another flaky test, the third one now: "
                    "test_websocket_reconnect. Fails on the NUC about 1 in 5 runs with a timeout. Quarantine "
                    "it please, and I'm starting to think we need a policy before the quarantine becomes a "
                    "graveyard.",
                    key="mt-flaky-3",
                ),
                a(
                    "Agreed, a quarantine without an expiry is where tests go to die. A policy that small "
                    "teams actually stick to:\n"
                    "\n"
                    "1. Every quarantined test has an **issue** and an **owner**.\n"
                    "2. Quarantine lasts **14 days**. After that, it's fixed, deleted, or re-quarantined with "
                    "a written reason.\n"
                    "3. The list is visible weekly, not only when someone opens a run summary.\n"
                    "\n"
                    "A script that lists quarantined tests with how long they've been in:\n"
                    "\n"
                    "```python\n"
                    "#!/usr/bin/env python3\n"
                    "# List quarantined tests and the age of their quarantine marker (from git blame).\n"
                    "import datetime as dt\n"
                    "import pathlib\n"
                    "import re\n"
                    "import subprocess\n"
                    "\n"
                    'MARK = re.compile(r"@pytest\\.mark\\.quarantine")\n'
                    "\n"
                    "def blame_date(path: pathlib.Path, lineno: int) -> dt.date:\n"
                    "    out = subprocess.run(\n"
                    '        ["git", "blame", "-L", f"{lineno},{lineno}", "--porcelain", '
                    "str(path)],\n"
                    "        capture_output=True, text=True, check=True,\n"
                    "    ).stdout\n"
                    '    ts = int(re.search(r"^author-time (\\d+)$", out, re.M).group(1))\n'
                    "    return dt.date.fromtimestamp(ts)\n"
                    "\n"
                    "today = dt.date.today()\n"
                    'for path in pathlib.Path("tests").rglob("test_*.py"):\n'
                    "    lines = path.read_text().splitlines()\n"
                    "    for i, line in enumerate(lines, start=1):\n"
                    "        if MARK.search(line):\n"
                    '            name = next(l for l in lines[i:] if l.lstrip().startswith("def '
                    '")).split("(")[0].split()[-1]\n'
                    "            age = (today - blame_date(path, i)).days\n"
                    '            flag = "  OVERDUE" if age > 14 else ""\n'
                    '            print(f"{age:4d}d  {path}::{name}{flag}")\n'
                    "```\n"
                    "\n"
                    "And mark this one the same way as the others."
                ),
                u("Love it. Can it open a GitHub issue automatically when something's overdue?"),
                a(
                    "Yes, from a weekly workflow, and idempotently so it doesn't open a fresh issue every "
                    "Monday:\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/quarantine-report.yml\n"
                    "name: Quarantine report\n"
                    "on:\n"
                    "  schedule:\n"
                    '    - cron: "0 7 * * 1"\n'
                    "  workflow_dispatch:\n"
                    "permissions:\n"
                    "  contents: read\n"
                    "  issues: write\n"
                    "jobs:\n"
                    "  report:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "        with:\n"
                    "          fetch-depth: 0   # blame needs history\n"
                    "      - name: Report overdue quarantines\n"
                    "        env:\n"
                    "          GH_TOKEN: ${{ github.token }}\n"
                    "        run: |\n"
                    "          python scripts/quarantine_ages.py > ages.txt\n"
                    '          cat ages.txt >> "$GITHUB_STEP_SUMMARY"\n'
                    "          grep OVERDUE ages.txt | while read -r line; do\n"
                    "            test_id=$(echo \"$line\" | awk '{print $2}')\n"
                    '            title="Quarantine overdue: $test_id"\n'
                    '            if ! gh issue list --state open --search "in:title \\"$title\\"" --json '
                    "number --jq '.[0].number' | grep -q .; then\n"
                    '              gh issue create --title "$title" --label flaky-test \\\n'
                    '                --body "This test has been in quarantine for more than 14 days. Fix it, '
                    'delete it, or re-quarantine it with a reason."\n'
                    "            fi\n"
                    "          done\n"
                    "```\n"
                    "\n"
                    "`fetch-depth: 0` matters: with the default shallow clone, `git blame` sees every line as "
                    "written in the latest commit and nothing is ever overdue.",
                    key="rc-req-quarantine-report",
                ),
                u(
                    "ok. Tomasz is also asking whether we can run the migration check against a real snapshot "
                    "of staging instead of the clone script, which only copies the schema"
                ),
                a(
                    "Possible, but it changes the risk profile: staging data is often a copy of something "
                    "real, and a snapshot in CI means that data now sits on the NUC and in whatever logs the "
                    "job prints. If you go there:\n"
                    "\n"
                    "- snapshot from a **scrubbed** copy (names, emails, notes replaced) rather than staging "
                    "itself;\n"
                    "- keep the dump encrypted at rest and delete it after the job;\n"
                    "- and make sure test output never echoes rows.\n"
                    "\n"
                    "A dump-and-scrub script is a few dozen lines of SQL updates plus `pg_dump "
                    "--format=custom`. Happy to write it when you want it, but it's a project, not a tweak."
                ),
                u("That's a bigger project, park it. thanks!"),
                a(
                    "Parked. Today's changes, in commit-message form:\n"
                    "\n"
                    "```text\n"
                    "ci: test against the new Postgres major version\n"
                    "ci: daily TLS certificate expiry check for app and staging\n"
                    "ci: weekly report of overdue quarantined tests\n"
                    "```"
                ),
            ],
        ),
        Session(
            "2026-03-10T13:15:00Z",
            [
                u(
                    "Org change, so you know the context for the next few weeks: Kofi's on parental leave "
                    "from Monday, for three months. Ines is the one who approves production deploys now; "
                    "she's been added as the required reviewer on the production environment and Kofi's been "
                    "removed so deploys don't hang waiting for him. We're also hiring a junior backend dev "
                    "who starts in April. So: any process that lives only in Kofi's head needs to come out of "
                    "it this week.",
                    key="ku-approver-2",
                ),
                a(
                    "Good moment to check the bus factor of the whole setup. A quick list of what I know of "
                    "that depends on a single person:\n"
                    "\n"
                    "- **One required reviewer on production.** If she's off sick on deploy day, nothing "
                    "ships. GitHub lets you list several reviewers and requires any one of them, so add a "
                    "second person (you?) as a backup.\n"
                    "- **Admin rights on the repo and org**, needed to register runners and edit "
                    "environments. Make sure at least two people have them before Kofi leaves.\n"
                    "- **The NUC under his desk.** Someone else needs to know where it is and have a key to "
                    "the office.\n"
                    "- **The Hetzner and AWS accounts.** Check who has console access and that MFA devices "
                    "aren't only on his phone.\n"
                    "\n"
                    "For the workflow files themselves, a CODEOWNERS entry makes sure changes to CI get "
                    "reviewed by someone who knows it."
                ),
                u(
                    "CODEOWNERS for .github/ is a good shout. Can you write it? Handles: me @noor-brk, Tomasz "
                    "@tkowal, Ines @ines-mdr."
                ),
                a(
                    "```text\n"
                    "# .github/CODEOWNERS\n"
                    "# Last matching pattern wins, so general rules first.\n"
                    "\n"
                    "*                       @tkowal @ines-mdr @noor-brk\n"
                    "\n"
                    "# CI, deploy and infrastructure\n"
                    "/.github/               @noor-brk @tkowal\n"
                    "/scripts/deploy.sh      @noor-brk @tkowal\n"
                    "/Dockerfile             @noor-brk @tkowal\n"
                    "/compose*.yml           @noor-brk @tkowal\n"
                    "\n"
                    "# Frontend\n"
                    "/frontend/              @ines-mdr\n"
                    "\n"
                    "# Database migrations get a second pair of eyes\n"
                    "**/migrations/          @tkowal\n"
                    "```\n"
                    "\n"
                    'CODEOWNERS only requests reviews by itself; to make them required, turn on "Require '
                    'review from Code Owners" in the branch protection rule for `main`. Listing two owners '
                    "for `.github/` means either one can approve, so you're not blocking each other."
                ),
                u(
                    "Next: Sentry. We want releases tracked and source maps uploaded on every deploy, so "
                    "frontend errors show real file names. What's the minimal version?"
                ),
                a(
                    "```yaml\n"
                    "      - name: Sentry release\n"
                    "        env:\n"
                    "          SENTRY_AUTH_TOKEN: ${{ secrets.SENTRY_AUTH_TOKEN }}\n"
                    "          SENTRY_ORG: brackenridge\n"
                    "          SENTRY_PROJECT: larkspur-web\n"
                    "          VERSION: ${{ github.sha }}\n"
                    "        run: |\n"
                    '          npx --yes @sentry/cli@2 releases new "$VERSION"\n'
                    '          npx --yes @sentry/cli@2 sourcemaps upload --release "$VERSION" '
                    "frontend/build/static/js\n"
                    '          npx --yes @sentry/cli@2 releases set-commits "$VERSION" --auto\n'
                    '          npx --yes @sentry/cli@2 releases finalize "$VERSION"\n'
                    '          npx --yes @sentry/cli@2 releases deploys "$VERSION" new -e production\n'
                    "```\n"
                    "\n"
                    "Put it in the deploy workflow after the deploy step succeeds, and add the token as a "
                    "secret on the production environment. Pin the CLI version rather than running whatever "
                    "`npx` finds. Two details that usually trip people up: the frontend has to be built with "
                    "`devtool: 'source-map'` (or the Create React App default), and the release string used "
                    "here must match what the browser SDK reports, so pass the commit SHA into the frontend "
                    "build as an env var and use it in `Sentry.init({ release })`."
                ),
                u(
                    "```\n"
                    "error: API request failed\n"
                    "  caused by: sentry reported an error: You do not have permission to perform this "
                    "action. (http status: 403)\n"
                    "```\n"
                    "\n"
                    "on set-commits"
                ),
                a(
                    "`set-commits --auto` needs two things the other commands don't:\n"
                    "\n"
                    "1. The token must have the `org:read` scope in addition to `project:releases`. Internal "
                    "integration tokens created from a project often lack it.\n"
                    "2. The GitHub repository has to be connected to Sentry through the GitHub integration, "
                    "so Sentry can look up the commits.\n"
                    "\n"
                    "If you don't want to set up the integration, drop `set-commits` for now. You lose the "
                    '"suspect commits" feature but everything else works.'
                ),
                u(
                    "Dropped it. Can we stop two deploys from running at once? Last week Tomasz and I both "
                    "clicked Run at the same time and it was a mess."
                ),
                a(
                    "```yaml\n"
                    "concurrency:\n"
                    "  group: deploy-production\n"
                    "  cancel-in-progress: false\n"
                    "```\n"
                    "\n"
                    "Put that at the top level of `deploy.yml`. A second run queues behind the first instead "
                    "of running in parallel. `cancel-in-progress: false` matters here: for CI you want the "
                    "newer run to cancel the older one, but for a deploy, cancelling halfway through a "
                    "migration is the worst possible outcome.\n"
                    "\n"
                    "Note that GitHub only keeps one *pending* run per group; if a third click arrives while "
                    "one is running and one is waiting, the waiting one is replaced. For a manual workflow "
                    "that's fine."
                ),
                u(
                    "Random one: the NUC's disk was at 91% this morning even with the weekly prune. What else "
                    "grows on a runner?"
                ),
                a(
                    "```bash\n"
                    "sudo du -xh --max-depth=2 /home/runner /var/lib/docker 2>/dev/null | sort -h | tail -15\n"
                    "docker system df -v | head -40\n"
                    "```\n"
                    "\n"
                    "Usual suspects on a long-lived runner:\n"
                    "\n"
                    "- **`_work/_tool`**: each `setup-python` / `setup-node` version ever used gets unpacked "
                    "there and stays.\n"
                    "- **`_diag`**: runner logs, a few MB per job, never rotated.\n"
                    '- **BuildKit cache** when images build locally; `docker system df` shows it as "Build '
                    'Cache", and `docker builder prune --filter until=168h` trims it.\n'
                    "- **Stopped containers and volumes** from jobs that crashed before cleanup.\n"
                    "\n"
                    "The output of those two commands will tell you which it is."
                ),
                u("Build cache, 61 GB of it. Pruned. Adding the builder prune to the weekly cron."),
                a(
                    "That's the usual culprit once the image job runs on the runner itself. For the cron "
                    "entry, put it next to the existing line:\n"
                    "\n"
                    "```cron\n"
                    '30 3 * * 0  runner  docker builder prune --force --filter "until=168h" >> '
                    "/var/log/runner-cleanup.log 2>&1\n"
                    "```"
                ),
                u("thanks. also, for the junior starting in April: any tips for making CI less scary for someone new?"),
                a(
                    "A few things that help more than documentation:\n"
                    "\n"
                    '- **Readable job names.** "backend / pytest (3.11)" tells a newcomer more than '
                    '"build-2".\n'
                    "- **Failing fast with a clear message.** `--maxfail=5` plus the short traceback format "
                    "keeps the log readable.\n"
                    '- **The same commands locally as in CI**, so "it failed in CI" can always be '
                    "reproduced with one command.\n"
                    '- **A one-page "how our CI works"** with the diagram of jobs and where the NUC fits '
                    "in.\n"
                    "- **Pairing on their first red build.** Watching someone read a failing log is worth "
                    "more than any page."
                ),
            ],
        ),
        Session(
            "2026-03-24T15:30:00Z",
            [
                u(
                    "Tomasz wants tagged releases with a changelog generated from the commit history, now "
                    "that the messages are consistent. What's the least-effort way?"
                ),
                a(
                    "`release-please` is the low-effort option: it reads the prefixes on commits to `main`, "
                    "keeps a release PR open with the next version number and changelog, and when you merge "
                    "that PR it tags the release.\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/release.yml\n"
                    "name: Release\n"
                    "on:\n"
                    "  push:\n"
                    "    branches: [main]\n"
                    "permissions:\n"
                    "  contents: write\n"
                    "  pull-requests: write\n"
                    "jobs:\n"
                    "  release-please:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    steps:\n"
                    "      - uses: googleapis/release-please-action@7987652d64b4581673a76e33ad5e98e3dd56832f "
                    "# v4.1.3\n"
                    "        with:\n"
                    "          release-type: simple\n"
                    "          config-file: release-please-config.json\n"
                    "          manifest-file: .release-please-manifest.json\n"
                    "```\n"
                    "\n"
                    "```json\n"
                    "{\n"
                    '  "packages": {\n'
                    '    ".": {\n'
                    '      "release-type": "simple",\n'
                    '      "changelog-sections": [\n'
                    '        {"type": "feat", "section": "Features"},\n'
                    '        {"type": "fix", "section": "Fixes"},\n'
                    '        {"type": "ci", "section": "CI", "hidden": true},\n'
                    '        {"type": "chore", "section": "Chores", "hidden": true}\n'
                    "      ]\n"
                    "    }\n"
                    "  }\n"
                    "}\n"
                    "```\n"
                    "\n"
                    "`simple` means it only maintains `CHANGELOG.md` and a `version.txt`, no `package.json` "
                    "or `setup.py` bumping. Hiding `ci` and `chore` keeps the changelog about what users "
                    "notice."
                ),
                u(
                    "```\n"
                    "Error: release-please failed: GitHub Actions is not permitted to create or approve pull "
                    "requests.\n"
                    "```"
                ),
                a(
                    "That's an org/repo setting, not the workflow. **Settings → Actions → General → Workflow "
                    'permissions**, tick "Allow GitHub Actions to create and approve pull requests". If the '
                    "box is greyed out, it's locked at the organisation level and an org admin has to allow "
                    "it there first.\n"
                    "\n"
                    "One side effect to know about: PRs opened with `GITHUB_TOKEN` don't trigger other "
                    "workflows, so your CI won't run on the release PR. That's usually fine since it only "
                    "touches the changelog, but if branch protection requires CI checks, you'll need a token "
                    "from a GitHub App instead."
                ),
                u(
                    "Good news on the PDF test btw: your fontconfig guess was right. fc-cache in a setup step "
                    "and it's been green 40 runs in a row on hosted runners. Taking it out of quarantine."
                ),
                a(
                    "Nice, a quarantine that ended the way it's supposed to. Remove the marker, keep the "
                    "setup step, and mention the cause in the commit body so the next person who sees the "
                    "`fc-cache` line knows why it's there:\n"
                    "\n"
                    "```text\n"
                    "fix: warm the fontconfig cache before rendering invoices in CI\n"
                    "\n"
                    "Fresh hosted runners have no font cache, and WeasyPrint's first\n"
                    "render built it inside the test, which hit the timeout. The setup\n"
                    "step builds it once per job.\n"
                    "```"
                ),
                u("The image is 1.1 GB, which seems a lot for a Django app. Where's it all going?"),
                a(
                    "```bash\n"
                    "docker history --no-trunc --format '{{.Size}}\\t{{.CreatedBy}}' "
                    "ghcr.io/brackenridge/larkspur:latest | sort -rh | head -12\n"
                    "```\n"
                    "\n"
                    "`docker history` shows what each layer added; sort by size and the top few usually "
                    "explain everything. `dive` is nicer if you can install it, since it shows wasted space "
                    "from files added in one layer and deleted in another. Paste the top of the output and "
                    "I'll read it."
                ),
                u(
                    "```\n"
                    "412MB   RUN /bin/sh -c pip install --no-cache-dir -r requirements/base.txt\n"
                    "188MB   RUN /bin/sh -c apt-get update && apt-get install -y --no-install-recommends "
                    "libpq5 libpango...\n"
                    "131MB   COPY . . # buildkit\n"
                    " 74.8MB /bin/sh -c #(nop) ADD file:...\n"
                    " 29MB   RUN /bin/sh -c python manage.py collectstatic --noinput\n"
                    "```"
                ),
                a(
                    "Three separate things:\n"
                    "\n"
                    "1. **`COPY . .` at 131 MB** means the build context includes things it shouldn't. "
                    "Probably `frontend/node_modules` or test fixtures. Check the `.dockerignore`:\n"
                    "\n"
                    "```text\n"
                    ".git\n"
                    "**/node_modules\n"
                    "**/__pycache__\n"
                    "*.pyc\n"
                    ".env*\n"
                    "tests/fixtures/large/\n"
                    "frontend/src/\n"
                    "docs/\n"
                    "```\n"
                    "\n"
                    "2. **pip at 412 MB**: look for heavy packages only used in development or in one "
                    "management command (pandas, for example). `pip install` with `requirements/base.txt` "
                    "should be only what production imports.\n"
                    "\n"
                    "3. **apt at 188 MB**: Pango pulls in a lot of fonts and icon themes. Installing with "
                    "`--no-install-recommends` is already there; the next step is to check whether you need "
                    "`fonts-dejavu` *and* `fonts-liberation`, and remove whatever the invoices don't use.\n"
                    "\n"
                    "The first one is free and probably worth 100 MB by itself."
                ),
                u(
                    "Down to 780 MB with the dockerignore and moving pandas to dev requirements (only the "
                    "reporting script used it). Fine for now.\n"
                    "\n"
                    "Also, Feb Actions bill: 1,840 minutes on hosted runners, all inside the included quota. "
                    "Kofi will be pleased when he's back."
                ),
                a(
                    "A third off for an afternoon's work is a good trade. The minutes look healthy too; with "
                    "the backend and image jobs on the NUC, the hosted runners are mostly doing frontend, the "
                    "nightly and the small scheduled checks."
                ),
                u("Dependabot opened 14 PRs on Monday and everyone ignored them. How do I make this less noisy?"),
                a(
                    "Group them, and schedule them for a day when someone will actually look:\n"
                    "\n"
                    "```yaml\n"
                    "# .github/dependabot.yml\n"
                    "version: 2\n"
                    "updates:\n"
                    "  - package-ecosystem: pip\n"
                    "    directory: /\n"
                    "    schedule:\n"
                    "      interval: weekly\n"
                    "      day: wednesday\n"
                    "    groups:\n"
                    "      python-minor:\n"
                    "        update-types: [minor, patch]\n"
                    "    open-pull-requests-limit: 5\n"
                    "\n"
                    "  - package-ecosystem: npm\n"
                    "    directory: /frontend\n"
                    "    schedule:\n"
                    "      interval: weekly\n"
                    "      day: wednesday\n"
                    "    groups:\n"
                    "      frontend-minor:\n"
                    "        update-types: [minor, patch]\n"
                    "    open-pull-requests-limit: 5\n"
                    "\n"
                    "  - package-ecosystem: github-actions\n"
                    "    directory: /\n"
                    "    schedule:\n"
                    "      interval: monthly\n"
                    "    groups:\n"
                    "      actions:\n"
                    '        patterns: ["*"]\n'
                    "```\n"
                    "\n"
                    "Minor and patch updates arrive as one PR per ecosystem; major versions still come one by "
                    "one, because those deserve their own look."
                ),
                u("Ines asked whether the frontend tests could run only on changed files for PRs. Worth it?"),
                a(
                    "```yaml\n"
                    "      - name: Tests related to the change\n"
                    "        if: github.event_name == 'pull_request'\n"
                    "        run: npx jest --changedSince=origin/${{ github.base_ref }} --ci\n"
                    "      - name: Full test run\n"
                    "        if: github.event_name != 'pull_request'\n"
                    "        run: npm test -- --ci --watchAll=false\n"
                    "```\n"
                    "\n"
                    "It works (Jest follows imports to find related tests), with caveats: the checkout needs "
                    "enough history to find the merge base (`fetch-depth: 0`), and anything Jest can't trace "
                    "through imports, like snapshot files or config, won't trigger tests. Full runs still "
                    "happen on `main`. With the frontend job at about two and a half minutes after the npm "
                    "cache, I'd only do it if that number grows."
                ),
                u("ok, full run for now. thanks, that's it for today"),
                a("Sounds right. The release workflow will open its first PR on the next merge to `main`."),
            ],
        ),
        Session(
            "2026-04-07T10:00:00Z",
            [
                u(
                    "Farid, our new junior, starts Monday. He's on Windows with WSL. Anything in our setup "
                    "that'll bite him?"
                ),
                a(
                    "The classic WSL problems, in the order they usually appear:\n"
                    "\n"
                    "1. **Cloning into the Windows filesystem** (`/mnt/c/...`). Everything, especially Docker "
                    "bind mounts and `npm ci`, is many times slower there. Clone into the Linux home "
                    "directory instead.\n"
                    "2. **Line endings.** If git converts to CRLF on checkout, shell scripts fail with "
                    "`/bin/bash^M: bad interpreter`.\n"
                    "3. **Docker Desktop vs Docker inside WSL.** Either works; mixing them doesn't. Pick "
                    "Docker Desktop with the WSL 2 backend, it's the least fiddly.\n"
                    "4. **File watching.** gunicorn's `--reload` and Jest watch mode need inotify, which only "
                    "works for files inside the Linux filesystem. See point 1.\n"
                    "\n"
                    "A `.gitattributes` at the repo root fixes the line endings for everyone, regardless of "
                    "their git settings:\n"
                    "\n"
                    "```text\n"
                    "# .gitattributes\n"
                    "* text=auto eol=lf\n"
                    "*.bat text eol=crlf\n"
                    "*.png binary\n"
                    "*.pdf binary\n"
                    "```"
                ),
                u(
                    "Line endings already bit Ines on her new laptop last month, so yes. After adding "
                    ".gitattributes, do existing files need fixing?"
                ),
                a(
                    "Yes, `.gitattributes` only affects files as they're checked in or out from now on. "
                    "Renormalise once, in its own commit:\n"
                    "\n"
                    "```bash\n"
                    "git add --renormalize .\n"
                    "git status\n"
                    'git commit -m "chore: normalise line endings to LF"\n'
                    "```\n"
                    "\n"
                    "Then everyone pulls, and anyone who still sees modified files after pulling runs:\n"
                    "\n"
                    "```bash\n"
                    "git rm --cached -r .\n"
                    "git reset --hard\n"
                    "```\n"
                    "\n"
                    "Do that on a clean working tree only: `reset --hard` throws away uncommitted changes."
                ),
                u(
                    "Prod moved to the new Postgres version on Saturday, went smoothly. So the nightly can "
                    "drop the old one?"
                ),
                a(
                    "Yes:\n"
                    "\n"
                    "```diff\n"
                    "       matrix:\n"
                    '         python: ["3.11", "3.12", "3.13"]\n'
                    '-        pg: ["13", "16"]\n'
                    '+        pg: ["16"]\n'
                    "```\n"
                    "\n"
                    "Or remove the `pg` dimension entirely and hard-code the image again, which makes the job "
                    "names shorter. Also check the preview compose file: it still starts the old image for "
                    "each preview's database.\n"
                    "\n"
                    "```text\n"
                    "ci: drop the old Postgres major from the nightly matrix\n"
                    "```"
                ),
                u(
                    "The nightly failed on 3.13 with a segfault in lxml:\n"
                    "\n"
                    "```\n"
                    "Fatal Python error: Segmentation fault\n"
                    "\n"
                    "Current thread 0x00007f3c2b1fe740 (most recent call first):\n"
                    "  File "
                    '"/opt/hostedtoolcache/Python/3.13.2/x64/lib/python3.13/site-packages/lxml/html/_'
                    '_init__.py", '
                    "line 766 in document_fromstring\n"
                    '  File "/home/runner/work/larkspur/larkspur/larkspur/notes/sanitize.py", line 41 in '
                    "clean_note_html\n"
                    "```"
                ),
                a(
                    "A segfault in a C extension that only happens on the newest Python almost always means "
                    "an old binary wheel, or a source build against newer headers than it was written for. "
                    "Check which lxml version the 3.13 job installed:\n"
                    "\n"
                    "```bash\n"
                    "pip show lxml | head -2\n"
                    'python -c "import lxml.etree as e; print(e.LXML_VERSION, e.LIBXML_VERSION)"\n'
                    "```\n"
                    "\n"
                    "If it's below 5.3, bump it; that's the first release with wheels built for 3.13. In "
                    "`requirements/base.txt`:\n"
                    "\n"
                    "```text\n"
                    "lxml>=5.3,<6\n"
                    "```\n"
                    "\n"
                    "If you're already on a recent one, report it upstream with the traceback; in the "
                    "meantime, mark the 3.13 matrix leg as `continue-on-error` so the nightly stays useful "
                    "for the other versions."
                ),
                u(
                    "Was on 4.9. Bumped, green. Tomasz is asking: can the deploy workflow run migrations as a "
                    "separate step before switching traffic, so a failing migration doesn't leave us "
                    "half-deployed?"
                ),
                a(
                    "```yaml\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    "      - name: Pull the new image on the server\n"
                    '        run: ./scripts/remote.sh "docker pull ghcr.io/brackenridge/larkspur:${{ '
                    'inputs.ref }}"\n'
                    "      - name: Run migrations with the new image\n"
                    "        run: |\n"
                    '          ./scripts/remote.sh "docker run --rm --env-file /srv/larkspur/.env \\\n'
                    "            ghcr.io/brackenridge/larkspur:${{ inputs.ref }} python manage.py migrate "
                    '--noinput"\n'
                    "      - name: Switch traffic\n"
                    '        run: ./scripts/remote.sh "cd /srv/larkspur && IMAGE_TAG=${{ inputs.ref }} '
                    'docker compose up -d web worker"\n'
                    "      - name: Smoke test\n"
                    "        run: curl -fsS --retry 5 --retry-delay 3 https://app.larkspur.health/healthz\n"
                    "```\n"
                    "\n"
                    "If the migration step fails, the job stops and the old containers keep serving. The "
                    "condition for this to be safe is that migrations are backwards compatible: the *old* "
                    "code must still work against the *new* schema for the minutes between the two steps. In "
                    "practice that means adding columns as nullable first and removing them a release later, "
                    "never renaming in place.",
                    key="rc-req-migrate-step",
                ),
                u('And rollbacks? Right now it\'s "Tomasz SSHes in and panics".'),
                a(
                    "Since every image is tagged with its commit, a rollback is just a deploy of an older "
                    "tag, without the migration step:\n"
                    "\n"
                    "```yaml\n"
                    "# .github/workflows/rollback.yml\n"
                    "name: Rollback\n"
                    "on:\n"
                    "  workflow_dispatch:\n"
                    "    inputs:\n"
                    "      tag:\n"
                    '        description: "Image tag (commit SHA) to go back to"\n'
                    "        required: true\n"
                    "concurrency:\n"
                    "  group: deploy-production\n"
                    "  cancel-in-progress: false\n"
                    "jobs:\n"
                    "  rollback:\n"
                    "    runs-on: ubuntu-latest\n"
                    "    environment: production\n"
                    "    steps:\n"
                    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
                    '      - run: ./scripts/remote.sh "docker pull ghcr.io/brackenridge/larkspur:${{ '
                    'inputs.tag }}"\n'
                    '      - run: ./scripts/remote.sh "cd /srv/larkspur && IMAGE_TAG=${{ inputs.tag }} '
                    'docker compose up -d web worker"\n'
                    "      - run: curl -fsS --retry 5 --retry-delay 3 https://app.larkspur.health/healthz\n"
                    "```\n"
                    "\n"
                    "Same concurrency group as the deploy, so a rollback can't race a deploy. It still goes "
                    "through the production approval, which is what you want; if that's too slow in an "
                    "emergency, it's a conscious decision to add a break-glass path, not something to "
                    "discover at 11pm. The schema stays where the newer release left it, which is why "
                    "backwards-compatible migrations matter so much."
                ),
                u(
                    "Practised the rollback on staging, took 40 seconds. Last thing today: in our retro, "
                    'Tomasz said CI is "finally boring". Best compliment I could give it.'
                ),
                a(
                    "That's the goal. Boring CI means people trust a green build and read a red one, which is "
                    "worth more than any individual speed-up. Enjoy the quiet, and good luck with Farid's "
                    "first week."
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
            "Add a job that builds the docs site whenever main changes.",
            "don't use anchors or aliases",
            ["si-noanchors"],
            "standing-instruction",
        ),
        Question(
            "I'm about to push the onboarding doc for Farid. What should the summary line say?",
            "Conventional Commits",
            ["si-commits"],
            "standing-instruction",
        ),
        Question(
            "Give the new hires one command to run lint and tests locally.",
            "plain bash scripts",
            ["pref-nomake"],
            "preference",
        ),
        Question(
            "Draft the message that appears on a pull request once its preview environment is up.",
            "no emoji",
            ["pref-noemoji"],
            "preference",
        ),
        Question(
            "How long does a full CI run take us these days?",
            "six minutes",
            ["ku-build-3"],
            "knowledge-update",
            superseded=["ku-build-1", "ku-build-2"],
        ),
        Question(
            "Which day of the week do we ship to production?",
            "Tuesday",
            ["ku-deploy-2"],
            "knowledge-update",
            superseded=["ku-deploy-1"],
        ),
        Question(
            "Which major version of Postgres is staging running?",
            "Postgres 16",
            ["ku-pg-2"],
            "knowledge-update",
            superseded=["staging-13-wal"],
        ),
        Question(
            "Who has to sign off before something goes to production?",
            "Ines",
            ["ku-approver-2"],
            "knowledge-update",
            superseded=["ku-approver-1"],
        ),
        Question(
            "Which tests have we had to quarantine as flaky?",
            "test_calendar_sync; test_invoice_pdf_render; test_websocket_reconnect",
            ["mt-flaky-1", "mt-flaky-2", "mt-flaky-3"],
            "multi-turn",
        ),
        Question(
            "What took staging down each of the two times it broke?",
            "disk filled up with WAL files; TLS certificate expired",
            ["staging-13-wal", "mt-outage-2"],
            "multi-turn",
        ),
        Question(
            "What are the two machines we set up for CI, the self-hosted runner and the preview host, called?",
            "gritstone; boulder",
            ["mt-runner", "mt-boulder"],
            "multi-turn",
        ),
        Question("Which Slack channel do deploy messages land in?", "#larkspur-deploys", ["sf-slack"], "single-fact"),
        Question("Where was my sister's wedding?", "Porto", ["sf-wedding"], "single-fact"),
        Question(
            "What did you say was the root cause of the calendar sync flake?",
            "naive local date",
            ["sf-calendar-cause"],
            "single-fact",
        ),
        Question("How long is Kofi's parental leave?", "three months", ["ku-approver-2"], "single-fact"),
        Question("At what time does the nightly matrix run start?", "17 2 * * *", ["code-cron"], "code"),
        Question("Which host port does the local compose setup publish the web app on?", "8081", ["code-port"], "code"),
        Question("Which files is the pip cache key computed from?", "requirements/*.txt", ["code-pipkey"], "code"),
        Question(
            "Make the script that throws away stale PR environments on boulder wait two weeks instead of one.",
            "max_age_days",
            ["rc-req-prune"],
            "request-context",
        ),
        Question(
            "Can you make the Monday job that opens issues for overdue flaky tests assign them to the author?",
            "gh issue create",
            ["rc-req-quarantine-report"],
            "request-context",
        ),
        Question(
            "Add a step to the production deploy that backs up the database right before the schema changes run.",
            "Run migrations with the new image",
            ["rc-req-migrate-step"],
            "request-context",
        ),
    ],
)
