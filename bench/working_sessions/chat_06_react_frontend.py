"""A front-end developer building the React and TypeScript booking site of a chain of pottery studios with
an assistant, over eleven weeks: components and a design system that changes its base, API endpoints
that get renamed, a double-booking bug hunted down, the team's review rules, and a launch that moves."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

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
        u("Ok that's enough setup for a Monday. Later this week: the slot grid."),
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

                and in `.env.development`, set `VITE_API_BASE_URL` to Femi's dev server. It returns
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
        u(
            "He had USE_TZ = False. 'Legacy reasons'. He's fixing it. You were right about the grumbling.",
            key="fe-fact-usetz",
        ),
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

S5 = Session(
    "2026-02-26T15:20:00Z",
    [
        u(
            w(
                r"""
                Bug hunt. Our NEW flow double-booked someone on staging. Ugh. Femi swears the server checks
                the hold. Repro from QA: pick a slot, wait on the payment step for a bit, go back, pick a
                different slot, pay. Customer ends up with BOTH slots booked.
                """
            )
        ),
        a(
            w(
                r"""
                That repro is a good clue: two slots booked means two holds were alive at payment time, and
                the second selection didn't release the first. If the server confirms "every hold belonging
                to this session", both get booked. Can you paste the hook that creates and releases holds?
                """
            )
        ),
        u(
            w(
                r"""
                ```tsx
                export function useHold(slotId: string | undefined) {
                  const [holdId, setHoldId] = useState<string>();

                  useEffect(() => {
                    if (!slotId) return;
                    createHold(slotId).then((hold) => setHoldId(hold.id));
                  }, [slotId]);

                  useEffect(() => {
                    return () => {
                      if (holdId) releaseHold(holdId);
                    };
                  }, []);

                  return holdId;
                }
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Found it — it's a stale closure. The cleanup in the second effect is created once, on
                mount, when `holdId` is still `undefined` (the effect has `[]` as dependencies). So the
                cleanup that runs later sees that first `undefined` forever and never releases anything.
                Picking a new slot creates a second hold; nothing releases the first.

                The fix is to release in the same effect that created the hold, so each cleanup closes
                over its own hold:

                ```tsx
                import { useEffect, useState } from "react";

                import { createHold, releaseHold } from "../../api/holds";

                export function useHold(slotId: string | undefined) {
                  const [holdId, setHoldId] = useState<string>();

                  useEffect(() => {
                    if (!slotId) return;
                    let cancelled = false;
                    let created: string | undefined;
                    createHold(slotId).then((hold) => {
                      created = hold.id;
                      if (cancelled) releaseHold(hold.id);
                      else setHoldId(hold.id);
                    });
                    return () => {
                      cancelled = true;
                      if (created) releaseHold(created);
                      setHoldId(undefined);
                    };
                  }, [slotId]);

                  return holdId;
                }
                ```

                The `cancelled` flag covers the race where the user switches slots before the first
                `createHold` has even answered: the late hold is released as soon as it arrives.
                """
            ),
            key="fe-bug-cause",
        ),
        u("Oof. The lint rule would've caught that, wouldn't it. react-hooks/exhaustive-deps"),
        a(
            w(
                r"""
                It would — it flags `holdId` missing from the `[]`. Is it turned on? Vite's React template
                includes `eslint-plugin-react-hooks`, but some setups only enable `rules-of-hooks`. In
                `eslint.config.js`:

                ```js
                import reactHooks from "eslint-plugin-react-hooks";

                export default [
                  {
                    plugins: { "react-hooks": reactHooks },
                    rules: {
                      "react-hooks/rules-of-hooks": "error",
                      "react-hooks/exhaustive-deps": "error",
                    },
                  },
                ];
                ```

                I'd make it an error rather than a warning; warnings get ignored in CI.
                """
            )
        ),
        u("It was 'warn'. 23 warnings in the codebase. Making it error and fixing them this afternoon."),
        a(
            "Worth it — most will be trivial, and one or two may be bugs like this one. Want a regression test "
            "for the hold first?"
        ),
        u("Yes."),
        a(
            w(
                r"""
                `src/features/booking/useHold.test.tsx`, with the API mocked:

                ```tsx
                import { renderHook, waitFor } from "@testing-library/react";
                import { describe, expect, it, vi } from "vitest";

                import * as holds from "../../api/holds";
                import { useHold } from "./useHold";

                describe("useHold", () => {
                  it("releases the previous hold when the slot changes", async () => {
                    vi.spyOn(holds, "createHold").mockImplementation(async (slotId) => ({ id: `hold-${slotId}` }));
                    const release = vi.spyOn(holds, "releaseHold").mockResolvedValue(undefined);

                    const { result, rerender } = renderHook(({ slot }) => useHold(slot), {
                      initialProps: { slot: "a" },
                    });
                    await waitFor(() => expect(result.current).toBe("hold-a"));

                    rerender({ slot: "b" });
                    await waitFor(() => expect(result.current).toBe("hold-b"));
                    expect(release).toHaveBeenCalledWith("hold-a");
                  });
                });
                ```

                A hook test has no DOM to query, so the role rule doesn't come into it here; the flow test
                for the slot grid will use `getByRole`.
                """
            )
        ),
        u(
            "Passes with the fix, fails without. Lovely. Femi's also adding a server check that one session can hold "
            "one seat."
        ),
        a("Belt and braces — the client fix stops it happening, the server check stops it mattering. Exactly right."),
        u(
            "Good day's work. Off to the studio for my own class tonight, I've been trying to throw a decent mug for "
            "a month."
        ),
        a("Good luck with the mug. Centring is the whole game, or so I'm told."),
    ],
)

S6 = Session(
    "2026-03-05T13:40:00Z",
    [
        u(
            "Femi has renamed things ahead of the other studios coming on: availability lives at "
            "/api/v2/availability since this morning (params studio, from, and days=7), the old one's gone.",
            key="fe-endpoint-new",
        ),
        a(
            w(
                r"""
                Then the hook changes in two ways: the path, and `week` becomes `from` plus a number of days.
                Full `src/features/booking/useAvailability.ts`:

                ```ts
                import { useQuery } from "@tanstack/react-query";

                import { getJson } from "../../api/client";
                import { parseWeek } from "../../api/slots";

                const DAYS = 7;

                export function useAvailability(studioId: string, from: string) {
                  const params = new URLSearchParams({ studio: studioId, from, days: String(DAYS) });
                  return useQuery({
                    queryKey: ["availability", studioId, from, DAYS],
                    queryFn: async () => parseWeek(await getJson(`/api/v2/availability?${params}`)),
                    staleTime: 30_000,
                    refetchOnWindowFocus: true,
                  });
                }
                ```

                `URLSearchParams` also encodes the studio id properly, which the template string didn't.
                """
            )
        ),
        u("Did the response shape change too? He said 'mostly the same'."),
        a(
            w(
                r"""
                "Mostly" is the word to worry about. The zod schema will tell you immediately — if anything
                moved, `parseWeek` throws with the exact path. If you want to see the difference before it
                hits the UI, log `WeekSchema.safeParse(body).error?.issues` once against his dev server.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                [{ code: "invalid_type", expected: "number", received: "undefined",
                   path: ["days", 0, "slots", 0, "seats_left"] }]
                ```
                He renamed seats_left to capacity_remaining. 'Mostly.'
                """
            )
        ),
        a(
            w(
                r"""
                Exactly why the mapping lives in one file. In `src/api/slots.ts`, change the schema field and
                the one line that maps it:

                ```ts
                const SlotSchema = z.object({
                  id: z.string(),
                  starts_at: z.string().datetime({ offset: true }),
                  capacity_remaining: z.number().int().nonnegative(),
                });
                // ...
                slots: d.slots.map((s) => ({ id: s.id, startsAt: s.starts_at, seatsLeft: s.capacity_remaining })),
                ```

                No component changes — they all read `seatsLeft`.
                """
            )
        ),
        u(
            "Next: the hold timer. Product wants a visible countdown on the payment step. The server releases holds "
            "after 7 minutes."
        ),
        a(
            w(
                r"""
                The countdown should come from the server's expiry rather than a client-side guess, so it
                can't drift. If the hold response includes `expires_at`, use that; the constant is only a
                fallback. `src/features/booking/HoldTimer.tsx`:

                ```tsx
                import { useEffect, useState } from "react";

                import styles from "./HoldTimer.module.css";

                const HOLD_SECONDS = 420;

                type HoldTimerProps = {
                  expiresAt?: string;
                  startedAt: number;
                  onExpire: () => void;
                };

                export function HoldTimer({ expiresAt, startedAt, onExpire }: HoldTimerProps) {
                  const deadline = expiresAt ? Date.parse(expiresAt) : startedAt + HOLD_SECONDS * 1000;
                  const [left, setLeft] = useState(() => Math.max(0, deadline - Date.now()));

                  useEffect(() => {
                    const tick = setInterval(() => {
                      const remaining = Math.max(0, deadline - Date.now());
                      setLeft(remaining);
                      if (remaining === 0) {
                        clearInterval(tick);
                        onExpire();
                      }
                    }, 1000);
                    return () => clearInterval(tick);
                  }, [deadline, onExpire]);

                  const minutes = Math.floor(left / 60_000);
                  const seconds = Math.floor((left % 60_000) / 1000).toString().padStart(2, "0");
                  return (
                    <p className={styles.timer} role="timer" aria-live="off">
                      Seat held for {minutes}:{seconds}
                    </p>
                  );
                }
                ```

                `aria-live="off"` on purpose: a screen reader announcing every second would be unbearable.
                We can announce once at one minute left with a separate polite live region.
                """
            ),
            key="fe-code-hold",
        ),
        u("onExpire in the deps — if the parent passes an inline function that resets the interval every render, no?"),
        a(
            w(
                r"""
                It does — and since the parent re-renders every second (it doesn't, but it might later),
                that would be a subtle bug. Either the parent wraps it in `useCallback`, or the timer keeps
                the latest callback in a ref:

                ```tsx
                const expire = useRef(onExpire);
                useEffect(() => {
                  expire.current = onExpire;
                }, [onExpire]);
                // ...and in the interval: expire.current();
                ```

                Then the interval effect depends only on `deadline`. I'd do the ref — it doesn't rely on
                every caller remembering.
                """
            )
        ),
        u(
            "Ref it is. Also, booking sizes: a customer can book up to 6 seats in one go, for groups.",
            key="fe-party-old",
        ),
        a(
            w(
                r"""
                A stepper for the party size, then, capped by whichever is lower: the maximum per booking or
                the seats left in that slot. I'll keep the limit in one constant next to the booking types
                so the stepper and the validation agree.
                """
            )
        ),
        u("Good. That's me for today — Thursday is studio night."),
    ],
)

S7 = Session(
    "2026-03-12T10:10:00Z",
    [
        u(
            w(
                r"""
                Morning! Catch-up: the hold fix went out in staging release 0.9.2 on Monday, QA re-ran the
                double-booking repro ten times, clean. Then the less fun news: a different PR that had one
                approval broke the checkout on staging for half a day, so Rhiannon changed the rule — every
                PR needs two approvals now, one of them from someone outside the feature. Slower but fair.
                And Peckham is the second studio on the new system, from next week.
                """
            ),
            key="fe-s7-update",
        ),
        a(
            w(
                r"""
                Good news on the fix, and the approvals change is a common response to exactly that kind of
                incident. With two approvals, small PRs matter even more — reviewers approve small ones
                quickly and sit on big ones, so the 400-line limit will do a lot of the work.

                For Peckham: since studio id is in the query key and the URL, it should just work. Worth
                checking the studio's time zone and opening hours come from the API rather than from any
                Hackney assumptions in the code. Anything hard-coded you can think of?
                """
            )
        ),
        u("The studio picker has Hackney as the default. That's it I think."),
        a(
            w(
                r"""
                Then read the default from the route (`/studios/:studioId/book`) and fall back to the first
                studio the API returns, never a literal. A studio page with no id in the URL should redirect
                to the list rather than guess.
                """
            )
        ),
        u("Dialog on React Aria, please. Confirmation modal for 'Cancel this booking?'."),
        a(
            w(
                r"""
                `src/ds/ConfirmDialog.tsx`:

                ```tsx
                import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";

                import { Button } from "./Button";
                import styles from "./ConfirmDialog.module.css";

                type ConfirmDialogProps = {
                  isOpen: boolean;
                  title: string;
                  children: React.ReactNode;
                  confirmLabel: string;
                  onConfirm: () => void;
                  onCancel: () => void;
                };

                export function ConfirmDialog({
                  isOpen,
                  title,
                  children,
                  confirmLabel,
                  onConfirm,
                  onCancel,
                }: ConfirmDialogProps) {
                  return (
                    <ModalOverlay
                      isOpen={isOpen}
                      onOpenChange={(open) => !open && onCancel()}
                      isDismissable
                      className={styles.overlay}
                    >
                      <Modal className={styles.modal}>
                        <Dialog role="alertdialog" className={styles.dialog}>
                          <Heading slot="title" className={styles.title}>{title}</Heading>
                          <div className={styles.body}>{children}</div>
                          <div className={styles.actions}>
                            <Button variant="secondary" onPress={onCancel}>Keep booking</Button>
                            <Button variant="primary" onPress={onConfirm}>{confirmLabel}</Button>
                          </div>
                        </Dialog>
                      </Modal>
                    </ModalOverlay>
                  );
                }
                ```

                `role="alertdialog"` because it interrupts to confirm a destructive action; React Aria
                handles the focus trap, Escape, and returning focus to the button that opened it.
                """
            ),
            key="rc-req-dialog",
        ),
        u("Should the destructive button be red? Lotte has a --color-danger token."),
        a(
            'Yes — add a `danger` variant to Button using `--color-danger`, and use it for "Cancel booking". '
            'Keep "Keep booking" as the safe, secondary choice; people in a hurry hit the coloured one.'
        ),
        u(
            w(
                r"""
                Test for it, querying by role as always:

                ```
                TestingLibraryElementError: Unable to find an accessible element with the role "dialog"
                ```
                """
            )
        ),
        a(
            w(
                r"""
                It's there, just with a different role — we set `role="alertdialog"`. Query for that:

                ```tsx
                const dialog = await screen.findByRole("alertdialog", { name: "Cancel this booking?" });
                await user.click(within(dialog).getByRole("button", { name: "Cancel booking" }));
                expect(onConfirm).toHaveBeenCalledOnce();
                ```

                The `name` comes from the `Heading slot="title"`, which React Aria wires up as the dialog's
                label — a nice check that the labelling works.
                """
            )
        ),
        u("Green. Two approvals later, merged. It took until 4pm to get the second one."),
        a("That's the cost. It usually settles as people get used to reviewing each other's areas."),
    ],
)

S8 = Session(
    "2026-03-19T14:30:00Z",
    [
        u(
            "Weird one: the calendar flashes blank for a moment every time you change week. Whole page content "
            "disappears, then comes back. Only since I added route-level code splitting."
        ),
        a(
            w(
                r"""
                That sounds like the Suspense boundary sits above the router outlet. When the week changes,
                something suspends — and the nearest boundary is the one around the whole route, so React
                swaps the entire page for its fallback (probably `null`) until the data is ready. Two fixes,
                and I'd do both:

                1. For the week data, keep the old week visible while the new one loads:
                   `placeholderData: keepPreviousData` in `useAvailability`.
                2. Put a smaller boundary around the grid only, so anything that does suspend blanks the grid,
                   not the page.

                ```tsx
                <Suspense fallback={<SlotGridSkeleton />}>
                  <SlotGrid days={data.days} selectedId={selected?.id} onSlotSelect={setSelected} />
                </Suspense>
                ```
                """
            ),
            key="fe-fact-suspense",
        ),
        u("keepPreviousData fixed it on its own. Boundary added too though."),
        a(
            "Good. With `keepPreviousData` you can dim the grid while `isPlaceholderData` is true, so people know "
            "it's loading."
        ),
        u(
            "Performance: Rhiannon set the bar at a Lighthouse performance score of 90 on mobile for launch. We're "
            "at 78 on the booking page.",
            key="fe-fact-lighthouse",
        ),
        a(
            w(
                r"""
                78 to 90 is doable. The usual suspects on a page like this, in order of payoff:

                - **Largest Contentful Paint**: the hero photo of the studio. Serve it as AVIF/WebP with
                  `width`/`height` set, `fetchpriority="high"`, and no lazy loading on that one image.
                - **JavaScript**: make sure React Aria's date picker and the payment SDK aren't in the
                  booking page's first chunk — lazy-load them when the step that needs them opens.
                - **Fonts**: `font-display: swap` and preload the one weight of Inter used above the fold.

                Can you paste the Lighthouse "Opportunities" list? It usually points straight at the biggest
                one.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                Reduce unused JavaScript — Potential savings of 186 KiB
                Properly size images — Potential savings of 412 KiB
                Eliminate render-blocking resources — Potential savings of 610 ms
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Images first — 412 KiB is the hero photo at desktop size on a phone. With `srcset`:

                ```tsx
                <img
                  src="/img/studio-800.webp"
                  srcSet="/img/studio-480.webp 480w, /img/studio-800.webp 800w, /img/studio-1600.webp 1600w"
                  sizes="(max-width: 600px) 100vw, 800px"
                  width={800}
                  height={533}
                  alt=""
                  fetchPriority="high"
                />
                ```

                The render-blocking one is likely the Google Fonts stylesheet; self-hosting Inter removes it.
                """
            )
        ),
        u("Images + self-hosted font: 91! Pushing before anyone changes anything."),
        a("Ha — get it in. Add a Lighthouse CI check so it doesn't quietly slide back to 78."),
        u(
            "For dates, by the way, I like date-fns — tree-shakeable, plain functions, no wrapper objects. Not "
            "moment, not dayjs.",
            key="fe-pref-datefns",
        ),
        a(
            w(
                r"""
                Good choice for a bundle-conscious app: you only ship the functions you import. For the week
                navigation, for instance:

                ```ts
                import { addWeeks, format, startOfWeek } from "date-fns";

                export function weekStart(d: Date): Date {
                  return startOfWeek(d, { weekStartsOn: 1 });
                }

                export function nextWeek(from: Date): string {
                  return format(addWeeks(weekStart(from), 1), "yyyy-MM-dd");
                }
                ```

                For anything shown to customers, keep using the `Intl` formatter in the studio's time zone;
                date-fns does the arithmetic.
                """
            )
        ),
        u("Perfect split. Right, I'm off tomorrow, I swapped my day off this week."),
        a("Enjoy the long weekend-ish."),
    ],
)

S9 = Session(
    "2026-03-26T09:50:00Z",
    [
        u(
            w(
                r"""
                Big planning meeting yesterday. Headline: we're going live on 21 April now. Marketing want
                the launch after Easter so the newsletter and the Instagram push land in the same week, and
                honestly the extra fortnight is welcome, checkout still needs work. Walthamstow also joins
                before launch, so it'll be all three studios on day one. Rhiannon wants a full dress
                rehearsal on staging the week before. Can you help me plan the remaining front-end work
                into those weeks?
                """
            ),
            key="fe-launch-new",
        ),
        a(
            w(
                r"""
                With three and a half weeks, a plan that leaves room for surprises:

                | Week | Front end | Depends on |
                |---|---|---|
                | 30 Mar | Checkout: payment element lazy-loaded, error states | Femi's payment intent endpoint |
                | 6 Apr | Confirmation page + email preview, error boundary, Sentry | — |
                | 13 Apr | Dress rehearsal on staging, fixes only, Lighthouse CI green | all three studios' data |
                | 20 Apr | Launch on the 21st; feature flag to fall back to the old plugin | — |

                The feature flag is the thing I'd insist on: if something goes wrong on launch day, you want
                to switch customers back to the WordPress flow in one click, not a redeploy.
                """
            )
        ),
        u("Walthamstow is the odd one: their classes are 2.5 hours, not 2. Does anything assume 2?"),
        a(
            w(
                r"""
                The grid only shows start times, so not there. But check anywhere that computes an end
                time — the confirmation page and the calendar invite. Both should take the duration from
                the slot (ask Femi to include `ends_at` or `duration_minutes` in the availability response)
                rather than adding two hours.
                """
            )
        ),
        u("The .ics invite adds 2h. Ha. Fixed to use ends_at, Femi added it in 10 minutes."),
        u(
            "Also the group cap changed: max per booking is 10 now, for studio-hire parties — hen dos, team away days.",
            key="fe-party-new",
        ),
        a(
            w(
                r"""
                Then the constant changes and the stepper follows. `src/features/booking/PartySize.tsx`:

                ```tsx
                import { Button, Group, Input, Label, NumberField } from "react-aria-components";

                import styles from "./PartySize.module.css";
                import { MAX_PER_BOOKING } from "./limits";

                type PartySizeProps = {
                  seatsLeft: number;
                  value: number;
                  onChange: (n: number) => void;
                };

                export function PartySize({ seatsLeft, value, onChange }: PartySizeProps) {
                  const max = Math.min(MAX_PER_BOOKING, seatsLeft);
                  return (
                    <NumberField className={styles.field} minValue={1} maxValue={max} value={value} onChange={onChange}>
                      <Label>People</Label>
                      <Group className={styles.group}>
                        <Button slot="decrement" className={styles.step}>−</Button>
                        <Input className={styles.input} />
                        <Button slot="increment" className={styles.step}>+</Button>
                      </Group>
                    </NumberField>
                  );
                }
                ```

                `NumberField` gives you keyboard arrows, clamping and the accessible labels for − and +.
                """
            )
        ),
        u(
            "And Rhiannon added one more rule after the launch-week scare stories she's heard: no merging on "
            "Fridays. Anything that can't wait gets a Thursday merge or waits till Monday.",
            key="fe-review-friday",
        ),
        a(
            w(
                r"""
                A classic, and wise for a small team without weekend on-call. If you want it enforced rather
                than remembered, a tiny required check in CI does it:

                ```yaml
                - name: No merging on Fridays
                  if: github.event_name == 'pull_request'
                  run: |
                    if [ "$(TZ=Europe/London date +%u)" = "5" ]; then
                      echo "It's Friday in London. Merge on Monday."
                      exit 1
                    fi
                ```

                Re-run it on Monday and it goes green. Rhiannon can still override as an admin for a real
                emergency.
                """
            )
        ),
        u("She'll love that it says 'Merge on Monday'."),
        a("Good CI messages are a small joy."),
        u(
            w(
                r"""
                Checkout: Femi's endpoint returns a client secret for the payment element. Stripe's React
                package. Lazy, like you said?
                """
            )
        ),
        a(
            w(
                r"""
                Yes — Stripe's script and the React wrapper are a big chunk of that "unused JavaScript" until
                the customer reaches payment. `src/features/booking/Checkout.tsx`:

                ```tsx
                import { lazy, Suspense } from "react";

                const PaymentStep = lazy(() => import("./PaymentStep").then((m) => ({ default: m.PaymentStep })));

                type CheckoutProps = { clientSecret?: string; onPaid: () => void };

                export function Checkout({ clientSecret, onPaid }: CheckoutProps) {
                  if (!clientSecret) return <p role="status">Preparing payment…</p>;
                  return (
                    <Suspense fallback={<p role="status">Loading payment…</p>}>
                      <PaymentStep clientSecret={clientSecret} onPaid={onPaid} />
                    </Suspense>
                  );
                }
                ```

                `PaymentStep` is where `loadStripe` and `<Elements>` live, so none of it loads on the slot
                grid.
                """
            )
        ),
        u("Lighthouse still 91 with checkout in. 🎉"),
        a("Then the budget held. Nice work."),
    ],
)

S10 = Session(
    "2026-04-09T16:25:00Z",
    [
        u("Launch prep. Error boundary + Sentry. What should the error screen say to a customer mid-booking?"),
        a(
            w(
                r"""
                Something that tells them whether they've been charged, because that's the only thing
                they'll care about. `src/routes/BookingErrorBoundary.tsx`:

                ```tsx
                import * as Sentry from "@sentry/react";

                import { Button } from "../ds/Button";
                import styles from "./BookingErrorBoundary.module.css";

                function Fallback({ resetError }: { resetError: () => void }) {
                  return (
                    <div className={styles.box} role="alert">
                      <h2>Something went wrong with your booking</h2>
                      <p>
                        If you reached the payment step and saw a confirmation, your booking is safe and we've
                        emailed you. Otherwise you haven't been charged.
                      </p>
                      <Button onPress={resetError}>Try again</Button>
                    </div>
                  );
                }

                export function BookingErrorBoundary({ children }: { children: React.ReactNode }) {
                  return <Sentry.ErrorBoundary fallback={Fallback}>{children}</Sentry.ErrorBoundary>;
                }
                ```

                And ask Lotte for a proper illustration — a cracked pot would be very on-brand.
                """
            ),
            key="rc-req-boundary",
        ),
        u("A cracked pot. She's going to make it, I know it."),
        u(
            w(
                r"""
                Safari bug from the dress rehearsal, iOS 17:

                ```
                RangeError: Invalid time value
                  at format (date-fns/format.js:352)
                  at nextWeek (src/features/booking/week.ts:9)
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Somewhere a date string is being parsed with `new Date("2026-04-13 10:00")` — a space instead
                of `T`. Chrome accepts that, Safari returns `Invalid Date`, and date-fns throws when it
                formats it. Look for where `from` is built from the URL or a slot; use `parseISO` from
                date-fns, which is strict and consistent across browsers:

                ```ts
                import { parseISO } from "date-fns";

                const from = parseISO(searchParams.get("from") ?? todayIso());
                ```

                And a test with that exact string, so it can't come back.
                """
            )
        ),
        u("It was the 'from' param from the week links, built with toLocaleString. Fixed with parseISO + a test."),
        a("Good. `toLocaleString` output is for people, never for parsing — it changes with the browser's locale too."),
        u("Feature flag for the fallback to WordPress — env var at build time or runtime?"),
        a(
            w(
                r"""
                Runtime, so you can flip it without a deploy. The simplest version: a small JSON file on the
                CDN the app reads at start-up.

                ```ts
                type Flags = { newBooking: boolean };

                export async function loadFlags(): Promise<Flags> {
                  try {
                    const response = await fetch("/flags.json", { cache: "no-store" });
                    const body: unknown = await response.json();
                    if (typeof body === "object" && body !== null && "newBooking" in body) {
                      return { newBooking: body.newBooking === true };
                    }
                  } catch {
                    // fall through: the safe default
                  }
                  return { newBooking: true };
                }
                ```

                If `newBooking` is false, the "Book" buttons link to the old plugin's URLs. Decide with
                Rhiannon whether the default on a failed fetch is the new flow or the old one.
                """
            ),
            key="rc-req-flags",
        ),
        u("She says new flow by default. The old one is the thing that double-books, after all."),
        a("Fair point — the fallback is for a disaster, not for a flaky CDN."),
        u("Analytics: marketing want to know where people drop out. GA4 is what they use. Cookie banner needed?"),
        a(
            w(
                r"""
                In the UK, yes: analytics cookies need consent under PECR, so GA4 shouldn't load until the
                customer agrees. Track the funnel with a handful of events at the steps we defined —
                `view_week`, `select_slot`, `start_hold`, `begin_payment`, `booking_confirmed` — and send
                them only after consent. The consent banner itself can be a React Aria `Dialog` that doesn't
                trap focus, so it doesn't block the page.
                """
            )
        ),
        u("Do the events need the studio in them? Marketing will want to compare Hackney and Peckham."),
        a(
            "Yes — send `studio_id` as an event parameter on every step, and register it as a custom dimension "
            "in GA4 so it shows up in the funnel reports. Party size on `begin_payment` is worth having too."
        ),
        u("Ok. Marketing will complain that consent rates are low. They always do."),
        a("They will. It's still the law, and an honest banner is better than a dark pattern on launch day."),
        u("Dress rehearsal verdict from Rhiannon: 'ship it'. 12 days to go."),
        a("Great verdict. Keep the last week for small fixes and sleep."),
    ],
)

S11 = Session(
    "2026-04-23T08:45:00Z",
    [
        u(
            "We're live! Two days in. 640 bookings, zero double-bookings, the cracked pot has appeared exactly "
            "twice (Sentry says a payment SDK timeout)."
        ),
        a(
            w(
                r"""
                Congratulations — that's a very clean launch. Two errors in 640 bookings from a third-party
                timeout is about as good as it gets. Worth checking in Sentry whether those two customers
                went on to book; if the payment SDK timed out on a slow connection, a retry on the payment
                step (rather than the error boundary) might keep them in the flow.
                """
            )
        ),
        u("Both retried and booked. Femi wants to turn off the WordPress plugin next week."),
        a(
            w(
                r"""
                Sensible, once you've had a full week including a weekend (weekends are usually the busiest
                for classes). Before switching it off: redirect its old URLs to the new booking pages, so
                links in old emails and Google results still work.
                """
            )
        ),
        u("Redirect map is on my list. Marketing are delighted with the funnel data. Drop-off is at payment, mostly."),
        a(
            w(
                r"""
                That's typical — payment is where people pause to think about money. Some things that help
                on booking sites in particular:

                - Show the total (with party size) before the payment step, so the payment page holds no
                  surprise.
                - Keep the hold countdown calm until the last minute; a big red timer makes people leave.
                - Offer Apple Pay / Google Pay — the payment element supports them, and on mobile they cut
                  the typing to zero.
                """
            )
        ),
        u("Wallets are a config change in Stripe's dashboard, right?"),
        a(
            w(
                r"""
                Mostly — enable them in the dashboard, and for Apple Pay verify your domain (Stripe gives you
                a file to host under `/.well-known/`). The payment element then shows them automatically on
                devices that support them. No code change, unless you've restricted `paymentMethodTypes`.
                """
            )
        ),
        u("We haven't. Doing it this afternoon. Retro is on Friday, any front-end lessons you'd put on the board?"),
        a(
            w(
                r"""
                From what we went through together:

                - Effects that create something should clean up the same thing — the hold bug.
                - Parse at the edge: zod caught the API renames before any component saw them.
                - Make lint rules errors, not warnings.
                - Performance budgets work when CI checks them.
                - A runtime flag made launch day calm, even though nobody used it.
                """
            )
        ),
        u("That's a good list. Thank you — genuinely, this project went better than any I've done."),
        a("It was a pleasure. Enjoy the retro — and the mug, if it ever gets centred."),
        u("It did! Glazed it blue. Slightly wonky. I love it."),
        a("Wonky is handmade. Congratulations on the launch and the mug."),
    ],
)

CHAT = Chat(
    name="ws-06-react-frontend",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11],
    questions=[
        Question(
            "Cover the ClassPicker with a couple of specs.", "query by role", ["fe-rule-role"], "standing-instruction"
        ),
        Question(
            "Scaffold the new WaitlistBanner component.",
            "named exports only",
            ["fe-rule-named"],
            "standing-instruction",
        ),
        Question(
            "Add typings for the payload the waitlist endpoint sends back.",
            "unknown and narrow",
            ["fe-rule-unknown"],
            "standing-instruction",
        ),
        Question(
            "Make the confirmation card look like the Figma frame.", "CSS modules", ["fe-pref-cssmodules"], "preference"
        ),
        Question(
            "Where should the list of upcoming classes live so the calendar and the sidebar both see it?",
            "TanStack Query",
            ["fe-pref-tanstack"],
            "preference",
        ),
        Question("Show 'starts in 2 hours' on the confirmation page.", "date-fns", ["fe-pref-datefns"], "preference"),
        Question("When do we launch?", "21 April", ["fe-launch-new"], "knowledge-update", ["fe-launch-old"]),
        Question(
            "Which endpoint gives me a studio's free slots?",
            "/api/v2/availability",
            ["fe-endpoint-new"],
            "knowledge-update",
            ["fe-endpoint-old", "fe-endpoint-old2"],
        ),
        Question(
            "What's our design system built on?",
            "React Aria Components",
            ["fe-ds-new"],
            "knowledge-update",
            ["fe-ds-old"],
        ),
        Question(
            "How many approvals does a PR need before it can merge?",
            "two approvals",
            ["fe-s7-update"],
            "knowledge-update",
            ["fe-review-400"],
        ),
        Question(
            "How many seats can a customer book in one go?",
            "10",
            ["fe-party-new"],
            "knowledge-update",
            ["fe-party-old"],
        ),
        Question(
            "What are Rhiannon's rules for getting a PR merged?",
            "under 400 lines; CI green; two approvals; screenshot; no merging on Fridays",
            ["fe-review-400", "fe-s7-update", "fe-review-screenshot", "fe-review-friday"],
            "multi-turn",
        ),
        Question(
            "What caused the double-booking on staging, and which release had the fix?",
            "stale closure; 0.9.2",
            ["fe-bug-cause", "fe-s7-update"],
            "multi-turn",
        ),
        Question(
            "Which studios are on the new booking system?",
            "Hackney; Peckham; Walthamstow",
            ["fe-studio-hackney", "fe-s7-update", "fe-launch-new"],
            "multi-turn",
        ),
        Question("What Lighthouse score do we need on mobile?", "90", ["fe-fact-lighthouse"], "single-fact"),
        Question(
            "Why did the whole page go blank when switching weeks?",
            "Suspense boundary sits above the router outlet",
            ["fe-fact-suspense"],
            "single-fact",
        ),
        Question("Which day of the week am I off?", "Wednesdays", ["fe-ds-new"], "single-fact"),
        Question(
            "What did Femi have wrong in his Django time settings?", "USE_TZ = False", ["fe-fact-usetz"], "single-fact"
        ),
        Question(
            "What's the prop the slot grid calls when someone picks a slot?",
            "onSlotSelect",
            ["fe-code-slotgrid", "fe-fact-suspense"],
            "code",
        ),
        Question("How many seconds is the fallback hold in the timer component?", "420", ["fe-code-hold"], "code"),
        Question("Which env variable holds the API base URL?", "VITE_API_BASE_URL", ["fe-code-client"], "code"),
        Question(
            "Make the are-you-sure modal reusable for leaving the waitlist; the safe button's text is hard-coded.",
            "ConfirmDialog",
            ["rc-req-dialog"],
            "request-context",
        ),
        Question(
            "Add a link to our support email on the screen customers see when the booking crashes.",
            "BookingErrorBoundary",
            ["rc-req-boundary"],
            "request-context",
        ),
        Question(
            "Add a waitlist switch next to the WordPress fallback one, so we can turn it on without deploying.",
            "loadFlags",
            ["rc-req-flags"],
            "request-context",
        ),
    ],
)
