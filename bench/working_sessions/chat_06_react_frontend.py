"""A front-end developer building the React and TypeScript booking site of a chain of pottery studios with
an assistant, over eleven weeks: components and a design system that changes its base, API endpoints
that get renamed, a double-booking bug hunted down, the team's review rules, and a launch that moves."""

from __future__ import annotations

import re
import textwrap

from bench.working_sessions.shape import Chat, Question, Session, a, u


def w(text: str) -> str:
    """``text`` as the speaker wrote it: the source's indentation dropped, prose lines wrapped for the
    source joined again, fenced blocks and list items kept line by line."""
    lines = textwrap.dedent(text).strip("\n").splitlines()
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        joinable = (
            not fenced
            and out
            and out[-1]
            and not out[-1].startswith("```")
            and line
            and not re.match(r"(\s|[-*>|]\s|\d+[.)]\s)", line)
        )
        if joinable:
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out).strip()


S1 = Session(
    "2026-02-02T10:15:00Z",
    [
        u(
            w(
                r"""
                Hi! New project, and I'll be leaning on you for a while. I'm the front-end dev at Kilnhouse —
                we run pottery studios in London, people book wheel-throwing and hand-building classes. The
                current booking flow is a WordPress plugin from 2017 and it double-books people about once
                a week. We're rebuilding it: React 18 + TypeScript + Vite on my side, Femi does the API
                (Django), Lotte is our designer, Rhiannon is the tech lead. We launch on 7 April.
                """
            ),
            key="fe-launch-old",
        ),
        a(
            w(
                r"""
                Sounds like a great project — and a very concrete reason to rebuild. A rough shape for the
                booking flow so we share a vocabulary:

                1. **Browse** — studios and class types
                2. **Pick a slot** — a week view of available sessions
                3. **Hold** — the seat is reserved for a few minutes while the customer pays
                4. **Pay & confirm** — payment, then a confirmation screen and email

                The double-booking bug almost always lives between 2 and 4, so it's worth agreeing with Femi
                early how holds work on the server. What's set up so far on the front end?
                """
            )
        ),
        u(
            w(
                r"""
                Vite scaffold, React Router 6, ESLint, Vitest + React Testing Library. Lotte's design system
                is going to be built on Radix primitives, she's already got Figma components named after
                them. Nothing else yet.
                """
            ),
            key="fe-ds-old",
        ),
        a(
            w(
                r"""
                Good base. Radix gives you accessible behaviour (focus management, keyboard, ARIA) without
                imposing styles, which suits building Lotte's own look on top. I'd put the design system in
                its own folder from day one, even if it's not a separate package:

                ```
                src/
                  ds/            # Button, Dialog, Select... wrapping Radix, styled to Lotte's tokens
                  features/
                    booking/     # SlotGrid, HoldTimer, Checkout...
                    studios/
                  api/           # fetch wrappers and types
                  routes/
                ```

                Features import from `ds/`, never from Radix directly, so a swap later touches one folder.
                """
            )
        ),
        u(
            "House rule for anything you write me: query by role in tests, never getByTestId. Rhiannon bounces "
            "PRs over it.",
            key="fe-rule-role",
        ),
        a(
            w(
                r"""
                Good rule — it tests what a user (or a screen reader) can actually find. So
                `getByRole("button", { name: /book/i })` rather than a `data-testid`. When something has no
                accessible role or name, that's usually a bug in the component, not in the test.
                """
            )
        ),
        u(
            "While we're on Rhiannon: her review rules. PRs under 400 lines changed, one approval to merge, "
            "and CI green. She's strict but fair.",
            key="fe-review-400",
        ),
        a(
            "Those are sensible. Under 400 lines mostly means slicing features into several PRs — I'll keep "
            "suggestions in reviewable pieces."
        ),
        u(
            "Styling: I'm not a Tailwind person. Utility soup in JSX makes my eyes bleed. CSS modules please, "
            "with Lotte's tokens as CSS custom properties.",
            key="fe-pref-cssmodules",
        ),
        a(
            w(
                r"""
                CSS modules plus custom properties is a clean combination. A tokens file Lotte can own:

                ```css
                /* src/ds/tokens.css — imported once in main.tsx */
                :root {
                  --color-clay-700: #8a4b2d;
                  --color-clay-100: #f6ebe3;
                  --color-ink: #1f1a17;
                  --color-focus: #2f6fde;
                  --radius-md: 8px;
                  --space-1: 4px;
                  --space-2: 8px;
                  --space-3: 12px;
                  --space-4: 16px;
                  --font-body: "Inter", system-ui, sans-serif;
                }
                ```

                And each component gets its `Button.module.css` next to `Button.tsx`, using only the
                variables — no raw hex values outside `tokens.css`.
                """
            )
        ),
        u("Lotte will love 'no raw hex'. She's been fighting that battle for years."),
        a("Then it's worth a lint rule later — stylelint's `color-no-hex` on everything except the tokens file."),
        u("Ok that's enough setup for a Monday. Tomorrow: the slot grid."),
        a("Sounds good. Bring the Figma frame or a screenshot of it and we'll build it together."),
    ],
)

S2 = Session(
    "2026-02-06T14:00:00Z",
    [
        u(
            w(
                r"""
                Slot grid. Lotte's frame: seven columns (Mon–Sun), rows of time slots, each slot shows the time
                and seats left ("3 left"), greyed out when full. Clicking a free slot selects it; the parent
                decides what happens next.
                """
            )
        ),
        a(
            w(
                r"""
                Here's a first version. The parent owns the selection, so the grid stays dumb and easy to
                test. `src/features/booking/SlotGrid.tsx`:

                ```tsx
                import styles from "./SlotGrid.module.css";

                export type Slot = {
                  id: string;
                  startsAt: string; // ISO
                  seatsLeft: number;
                };

                type SlotGridProps = {
                  days: { date: string; slots: Slot[] }[];
                  selectedId?: string;
                  onSlotSelect: (slot: Slot) => void;
                };

                export function SlotGrid({ days, selectedId, onSlotSelect }: SlotGridProps) {
                  return (
                    <div className={styles.grid} role="grid" aria-label="Available classes">
                      {days.map((day) => (
                        <div key={day.date} role="row" className={styles.day}>
                          <div role="columnheader" className={styles.dayName}>{day.date}</div>
                          {day.slots.map((slot) => {
                            const full = slot.seatsLeft === 0;
                            return (
                              <button
                                key={slot.id}
                                type="button"
                                role="gridcell"
                                className={styles.slot}
                                aria-pressed={slot.id === selectedId}
                                disabled={full}
                                onClick={() => onSlotSelect(slot)}
                              >
                                {slot.startsAt.slice(11, 16)} · {full ? "Full" : `${slot.seatsLeft} left`}
                              </button>
                            );
                          })}
                        </div>
                      ))}
                    </div>
                  );
                }
                ```

                `aria-pressed` tells assistive tech which slot is selected, and gives the test something to
                query.
                """
            ),
            key="fe-code-slotgrid",
        ),
        u(
            "Also: named exports only, no default exports. It's on our review checklist and I keep forgetting myself.",
            key="fe-rule-named",
        ),
        a(
            "Good — the grid above is already a named export, and I'll stick to that. It also makes renames "
            "and auto-imports far more reliable."
        ),
        u("`startsAt.slice(11, 16)` is going to bite us with time zones, isn't it"),
        a(
            w(
                r"""
                Yes. It shows whatever offset the API used, which is UTC if Femi serialises in UTC — an hour
                off for half the year in London. Format it in the studio's time zone instead:

                ```ts
                const timeFormat = new Intl.DateTimeFormat("en-GB", {
                  hour: "2-digit",
                  minute: "2-digit",
                  timeZone: "Europe/London",
                });

                export function slotTime(iso: string): string {
                  return timeFormat.format(new Date(iso));
                }
                ```

                Create the formatter once at module level — constructing `Intl.DateTimeFormat` per slot is
                surprisingly slow on a full week.
                """
            )
        ),
        u(
            "Where does the data come from — Femi says the endpoint is GET /api/v1/slots?studio=<id>&week=<date>. "
            "Returns slots grouped by day.",
            key="fe-endpoint-old",
        ),
        a(
            w(
                r"""
                Then a small typed client. `src/api/client.ts`:

                ```ts
                const BASE = import.meta.env.VITE_API_BASE_URL;

                export class ApiError extends Error {
                  constructor(public status: number, public body: unknown) {
                    super(`API ${status}`);
                  }
                }

                export async function getJson(path: string, init?: RequestInit): Promise<unknown> {
                  const response = await fetch(`${BASE}${path}`, {
                    ...init,
                    headers: { Accept: "application/json", ...init?.headers },
                    credentials: "include",
                  });
                  const body: unknown = await response.json().catch(() => null);
                  if (!response.ok) throw new ApiError(response.status, body);
                  return body;
                }
                ```

                and in `.env.development`: the API base URL pointing at Femi's dev server. It returns
                `unknown` on purpose: the caller decides what shape it expects and checks it.
                """
            ),
            key="fe-code-client",
        ),
        u("Why credentials: include?"),
        a(
            w(
                r"""
                Because the hold will almost certainly be tied to a session cookie on Femi's side, and
                `fetch` doesn't send cookies to another origin unless you ask. If the API ends up on the same
                origin in production (behind the same domain), it's harmless. On the server, Django will need
                CORS with `CORS_ALLOW_CREDENTIALS = True` and an explicit origin, not `*`.
                """
            )
        ),
        u("I'll forward that to Femi. He'll grumble about CORS, he always does."),
        a("Everyone grumbles about CORS. It's the one thing that unites the industry."),
    ],
)

S3 = Session(
    "2026-02-12T09:30:00Z",
    [
        u(
            "Data fetching. I'd rather not reach for Redux — for server data I like TanStack Query, and local "
            "state stays in components. Ok with that?",
            key="fe-pref-tanstack",
        ),
        a(
            w(
                r"""
                Very much — the slots are server state (cached, refetched, shared), which is what TanStack
                Query is for, and nothing in the booking flow needs a global client store. A hook for the
                week's availability, `src/features/booking/useAvailability.ts`:

                ```ts
                import { useQuery } from "@tanstack/react-query";

                import { getJson } from "../../api/client";
                import { parseWeek } from "../../api/slots";

                export function useAvailability(studioId: string, weekStart: string) {
                  return useQuery({
                    queryKey: ["availability", studioId, weekStart],
                    queryFn: async () => parseWeek(await getJson(`/api/v1/slots?studio=${studioId}&week=${weekStart}`)),
                    staleTime: 30_000,
                    refetchOnWindowFocus: true,
                  });
                }
                ```

                `staleTime` of 30 seconds keeps seat counts fresh without hammering Femi's API; refetching
                on focus means a customer coming back from another tab sees current availability.
                """
            ),
            key="fe-endpoint-old2",
        ),
        u(
            "And no `any`, ever. If you don't know what something is, `unknown` and narrow it.",
            key="fe-rule-unknown",
        ),
        a(
            w(
                r"""
                Agreed — which is why `getJson` returns `unknown`. The narrowing lives in `parseWeek`; with
                zod it's short. `src/api/slots.ts`:

                ```ts
                import { z } from "zod";

                const SlotSchema = z.object({
                  id: z.string(),
                  starts_at: z.string().datetime({ offset: true }),
                  seats_left: z.number().int().nonnegative(),
                });

                const WeekSchema = z.object({
                  days: z.array(z.object({ date: z.string(), slots: z.array(SlotSchema) })),
                });

                export type Week = {
                  days: { date: string; slots: { id: string; startsAt: string; seatsLeft: number }[] }[];
                };

                export function parseWeek(body: unknown): Week {
                  const week = WeekSchema.parse(body);
                  return {
                    days: week.days.map((d) => ({
                      date: d.date,
                      slots: d.slots.map((s) => ({ id: s.id, startsAt: s.starts_at, seatsLeft: s.seats_left })),
                    })),
                  };
                }
                ```

                The snake_case-to-camelCase mapping happens in one place, so components never see Femi's
                field names.
                """
            )
        ),
        u("zod adds weight though. How much?"),
        a(
            w(
                r"""
                Around 12–14 kB gzipped for zod 3 if you use most of it; less with tree-shaking if you don't.
                For a booking site that's acceptable, but if it ever matters, `valibot` does the same job in
                a fraction of the size with a very similar API. I'd start with zod — the team is more likely
                to know it.
                """
            )
        ),
        u(
            w(
                r"""
                Fine. First real call against Femi's dev server:

                ```
                ZodError: [
                  {
                    "code": "invalid_string",
                    "validation": "datetime",
                    "path": ["days", 0, "slots", 0, "starts_at"],
                    "message": "Invalid datetime"
                  }
                ]
                ```
                """
            )
        ),
        a(
            w(
                r"""
                The schema wants an offset (`{ offset: true }` allows `+00:00`, and `Z` is always allowed),
                so Femi's value probably has neither — a naive datetime like `2026-02-16T10:00:00`. That's
                worth fixing on his side rather than loosening the schema: a naive time is exactly the
                thing that goes wrong twice a year at the clock change. In Django, `USE_TZ = True` and
                DRF's `DateTimeField` will serialise with the offset.
                """
            )
        ),
        u("He had USE_TZ = False. 'Legacy reasons'. He's fixing it. You were right about the grumbling."),
        a("A fair trade — one grumble now instead of a double-booking every March and October."),
        u(
            "First studio in the data is Hackney — it's the flagship and the only one with the new API for now.",
            key="fe-studio-hackney",
        ),
        a(
            "Good — one studio is plenty for building the flow. When the others come on, the studio id in the "
            "query key means each studio's weeks cache separately, so nothing changes in the hook."
        ),
        u("Right, lunch. Thanks."),
    ],
)

S4 = Session(
    "2026-02-19T11:05:00Z",
    [
        u(
            w(
                r"""
                Design system news, and it's a big one. Lotte and Rhiannon spent Tuesday comparing options
                for the date picker, because the Radix one doesn't exist and the third-party ones we tried
                were inaccessible. Lotte's decided we're moving the whole design system to React Aria
                Components — it has a proper calendar and date picker, and the accessibility is better
                documented. So nothing new on Radix. Luckily we only have Button and Dialog so far. Also,
                unrelated, I'm taking Wednesdays off from next month, I've gone down to four days. Can you
                redo Button on React Aria?
                """
            ),
            key="fe-ds-new",
        ),
        a(
            w(
                r"""
                Good timing to switch — two components is a cheap migration. `src/ds/Button.tsx` on React
                Aria Components:

                ```tsx
                import { Button as AriaButton, type ButtonProps as AriaButtonProps } from "react-aria-components";

                import styles from "./Button.module.css";

                type ButtonProps = AriaButtonProps & {
                  variant?: "primary" | "secondary" | "quiet";
                };

                export function Button({ variant = "primary", className, ...props }: ButtonProps) {
                  return (
                    <AriaButton
                      {...props}
                      className={[styles.button, styles[variant], className].filter(Boolean).join(" ")}
                    />
                  );
                }
                ```

                and `Button.module.css`, using the data attributes React Aria sets for state:

                ```css
                .button {
                  font: 500 1rem/1.2 var(--font-body);
                  padding: var(--space-2) var(--space-4);
                  border-radius: var(--radius-md);
                  border: 1px solid transparent;
                }
                .primary { background: var(--color-clay-700); color: white; }
                .secondary { background: var(--color-clay-100); color: var(--color-ink); }
                .quiet { background: transparent; color: var(--color-clay-700); }
                .button[data-focus-visible] { outline: 2px solid var(--color-focus); outline-offset: 2px; }
                .button[data-disabled] { opacity: 0.5; }
                .button[data-pressed] { transform: translateY(1px); }
                ```

                One difference to watch: React Aria's Button uses `onPress`, not `onClick`. It handles touch
                and keyboard consistently, but existing call sites need renaming.
                """
            )
        ),
        u("className on RAC components can also be a function, right? Does that break our join?"),
        a(
            w(
                r"""
                Good catch — yes, `className` can be a function of render props (`({ isPressed }) => ...`),
                and joining a function into a string would produce nonsense. Since we style with data
                attributes, I'd narrow our prop to a string so nobody passes a function by accident:

                ```tsx
                type ButtonProps = Omit<AriaButtonProps, "className"> & {
                  variant?: "primary" | "secondary" | "quiet";
                  className?: string;
                };
                ```

                The rest of the component stays the same.
                """
            )
        ),
        u(
            "Nice. Dialog next week. Also a new review rule as of today: every PR with UI changes needs a screenshot "
            "or a short screen recording in the description.",
            key="fe-review-screenshot",
        ),
        a(
            w(
                r"""
                Makes sense for a team with a designer. A PR template helps people remember —
                `.github/pull_request_template.md`:

                ```markdown
                ## What

                ## Why

                ## Screenshots / recording
                <!-- Required for UI changes. Before and after if it's a change. -->

                ## Checklist
                - [ ] Under 400 lines
                - [ ] Named exports only
                - [ ] Tests query by role
                ```
                """
            )
        ),
        u("Ha, you've basically written Rhiannon's brain as a markdown file."),
        a("She may want to add a few more boxes. Tech leads always do."),
        u(
            w(
                r"""
                Unrelated, vite build is warning:

                ```
                (!) Some chunks are larger than 500 kB after minification. Consider:
                - Using dynamic import() to code-split the application
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Expected at this stage — React, React Aria, TanStack Query and zod in one chunk. Splitting
                by route is the easiest win, since the booking flow and the studio pages don't need each
                other:

                ```tsx
                import { lazy } from "react";

                const BookingRoute = lazy(() =>
                  import("./routes/BookingRoute").then((m) => ({ default: m.BookingRoute })),
                );
                const StudioRoute = lazy(() =>
                  import("./routes/StudioRoute").then((m) => ({ default: m.StudioRoute })),
                );
                ```

                The `.then(m => ({ default: ... }))` is the price of named exports: `lazy` wants a default
                export, so we adapt it at the import site instead of adding one.
                """
            )
        ),
        u("Worth it to keep the rule. Build's down to two chunks under 300 kB."),
        a("Good. We'll check the numbers again once checkout lands — payment SDKs are usually the heavy bit."),
    ],
)

CHAT = Chat(
    name="ws-06-react-frontend",
    sessions=[S1, S2, S3, S4],
    questions=[
        Question(
            "Cover the ClassPicker with a couple of specs.", "query by role", ["fe-rule-role"], "standing-instruction"
        ),
    ],
)
