"""A master's student writes a thesis on transplanted eelgrass with an assistant over a spring: the
LaTeX template, the methods and the statistics in R, supervisors' feedback, a citation style that
changes, word counts and the submission."""

from __future__ import annotations

from textwrap import dedent

from bench.working_sessions.shape import Chat, Question, Session, a, u


def d(text: str) -> str:
    return dedent(text).strip("\n")


SESSIONS = [
    Session(
        "2026-01-20T19:40:00Z",
        [
            u(
                d("""
                Hello! I'm starting the write-up of my MSc thesis (Marine Ecology, Kessling University) and I'd
                like help over the next few months. Working title: "Survival of transplanted eelgrass (Zostera
                marina) in Skerrvik Bay: effects of planting depth and sediment type". My supervisor is Dr. Henrik
                Aalto. The fieldwork is done, the data is in spreadsheets, and the writing is... notes.
                """),
                key="supervisor",
            ),
            a(
                d("""
                Happy to help — and having the fieldwork done before writing is a strong position to be in. A
                structure that suits an experimental ecology thesis:

                1. **Introduction** — why eelgrass matters, why restoration fails, the gap your experiment
                   addresses, aims and hypotheses.
                2. **Literature review** — restoration methods, factors affecting transplant survival (depth,
                   light, sediment, wave exposure, bioturbation), Baltic specifics.
                3. **Methods** — site, experimental design, planting, monitoring, statistics.
                4. **Results** — survival, shoot density, by depth and sediment.
                5. **Discussion** — what the results mean, limitations, recommendations for restoration.
                6. **Conclusion**.

                Some departments merge the review into the introduction; check your programme handbook. Where
                would you like to start — the LaTeX setup, or the chapter you know best (usually methods)?
                """)
            ),
            u(
                d("""
                Before we start: British spelling throughout, please — colour, analyse, modelling. The
                university requires it and my spellchecker is set to US, which is a mess already.
                """),
                key="british",
            ),
            a(
                d("""
                Understood: British spelling in everything I write for you. You can also fix the spellchecker
                per project — in Overleaf it's under Menu → Spell check → English (British), and in LaTeX itself
                `\\usepackage[british]{babel}` sets the hyphenation patterns to match.
                """)
            ),
            u(
                d("""
                Good, because I write everything in Overleaf, never locally — the uni pays for it and I switch
                between my laptop and the lab PC all the time.
                """),
                key="overleaf",
            ),
            a(
                d("""
                Then let's set the project up there. A preamble for a thesis with a binding margin, British
                English and biblatex:

                ```latex
                \\documentclass[12pt, a4paper, oneside]{report}
                \\usepackage[a4paper, left=35mm, right=25mm, top=25mm, bottom=25mm]{geometry}
                \\usepackage[british]{babel}
                \\usepackage[T1]{fontenc}
                \\usepackage{lmodern}
                \\usepackage{microtype}
                \\usepackage{setspace}
                \\onehalfspacing
                \\usepackage{graphicx}
                \\usepackage{booktabs}
                \\usepackage{siunitx}
                \\usepackage[hidelinks]{hyperref}

                \\graphicspath{{figures/}}

                \\begin{document}
                \\include{chapters/01-introduction}
                \\include{chapters/02-literature}
                \\include{chapters/03-methods}
                \\include{chapters/04-results}
                \\include{chapters/05-discussion}
                \\include{chapters/06-conclusion}
                \\end{document}
                ```

                The wider left margin leaves room for binding; check the handbook's exact figure. One file per
                chapter keeps Overleaf's editor responsive and lets you compile a single chapter with
                `\\includeonly{chapters/03-methods}` while drafting.
                """),
                key="margin",
            ),
            u("The department uses APA 7 for citations.", key="style-old"),
            a(
                d("""
                biblatex has an APA 7 style; on Overleaf biber is available, so:

                ```latex
                \\usepackage[style=apa, backend=biber]{biblatex}
                \\addbibresource{references.bib}
                ```

                Then `\\textcite{key}` gives "Author (Year)" in running text and `\\parencite{key}` gives
                "(Author, Year)". At the end of the document, `\\printbibliography`. In Overleaf's settings, make
                sure the compiler runs biber rather than BibTeX (Menu → Compiler stays pdfLaTeX; biber is picked
                up from the `backend` option).
                """)
            ),
            u("what's the difference between \\include and \\input? I've seen both"),
            a(
                d("""
                `\\include` starts a new page, writes a separate `.aux` file for the chapter and works with
                `\\includeonly`; it can't be nested. `\\input` just pastes the file's contents in place — no page
                break, nestable. Chapters: `\\include`. Bits inside a chapter (a long table, a figure block):
                `\\input`.
                """)
            ),
            u(
                d("""
                Perfect. Heads up on my schedule: Thursdays I work at a bike shop, so writing happens Tuesday and
                Wednesday evenings plus weekends.
                """),
                key="bikeshop",
            ),
            a(
                d("""
                Good to know. Evenings suit writing better than analysis anyway. If it helps, keep a short
                "next time" note at the bottom of the chapter you're working on, so each session starts
                without having to remember where you stopped.
                """)
            ),
            u("Love that. Tuesday then — methods first."),
            a("Methods first. Bring the sampling design and the dates, and we'll draft the section together."),
        ],
    ),
    Session(
        "2026-01-27T20:05:00Z",
        [
            u(
                d("""
                Methods. The design: we planted 1,440 shoots in May 2025 — three depths (1.5, 2.5 and 3.5 m) ×
                two sediment types (sand, muddy sand) × four replicate plots × 60 shoots per plot. Survival
                surveys in July and October. Oh and submission deadline is June 12.
                """),
                key="planted",
            ),
            a(
                d("""
                A clean factorial design — that makes both the writing and the statistics straightforward. A
                first draft of the design paragraph:

                > The experiment followed a fully crossed factorial design with planting depth (1.5, 2.5 and
                > 3.5 m) and sediment type (sand and muddy sand) as fixed factors. Each of the six combinations
                > was replicated in four plots of 60 shoots, giving 24 plots and 1,440 shoots in total. Shoots
                > were planted in May 2025 and survival was recorded in July and October 2025.

                In LaTeX, `siunitx` keeps units consistent: `\\qtylist{1.5;2.5;3.5}{\\metre}` renders "1.5 m,
                2.5 m and 3.5 m" with the right spacing.

                For the June 12 deadline, working back: methods and results drafted by mid-March, discussion by
                mid-April, full draft to your supervisor in early May, leaving a month for revisions.
                """),
                key="deadline-old",
            ),
            u(
                d("""
                One rule for when you suggest edits to my text: show them as before/after pairs, never just the
                rewritten version. I need to see what changed to learn anything.
                """),
                key="before-after",
            ),
            a(
                d("""
                Will do. For example, on the paragraph above:

                **Before:** "Shoots were planted in May 2025 and survival was recorded in July and October 2025."

                **After:** "Shoots were planted in May 2025; survival was recorded in July and October 2025."

                (Joining the two clauses with a semicolon tightens the sentence without losing anything.) For
                longer passages I'll number the pairs so you can accept them one at a time.
                """)
            ),
            u(
                d("""
                Here's my site description, be brutal:

                "The study site is located in Skerrvik Bay, which is a shallow bay that is located on the
                western coast of the Baltic and which is characterised by low salinity (around 12 PSU) and it
                is sheltered from the prevailing westerly winds by a spit."
                """)
            ),
            a(
                d("""
                1. **Before:** "The study site is located in Skerrvik Bay, which is a shallow bay that is located
                   on the western coast of the Baltic"
                   **After:** "The study was carried out in Skerrvik Bay, a shallow bay on the western Baltic
                   coast"
                   (removes the repeated "located" and the "which is" chain)

                2. **Before:** "and which is characterised by low salinity (around 12 PSU)"
                   **After:** ". Salinity is low (around 12 PSU)"
                   (a new sentence gives the salinity room)

                3. **Before:** "and it is sheltered from the prevailing westerly winds by a spit."
                   **After:** ", and a spit shelters the bay from the prevailing westerly winds."
                   (active voice, and the sheltering feature comes first)

                Together: "The study was carried out in Skerrvik Bay, a shallow bay on the western Baltic coast.
                Salinity is low (around 12 PSU), and a spit shelters the bay from the prevailing westerly
                winds."
                """)
            ),
            u(
                d("""
                Much better. Another rule, a serious one: never invent citations. If you're not sure a source
                exists, mark it [CHECK] instead of giving me an author and a year. A friend got burned by a
                fabricated reference in her viva.
                """),
                key="no-invent",
            ),
            a(
                d("""
                Agreed, and it's the right rule. I'll only cite sources you give me or that I'm confident
                exist, and anywhere a claim needs support I'm not sure of, I'll put [CHECK] with a description
                of the kind of source needed, e.g. "[CHECK: a study of transplant survival versus depth in the
                Baltic]". You then find the real paper (or drop the claim).
                """)
            ),
            u(
                d("""
                And a style thing: I like short paragraphs — four or five sentences at most. Long ones lose me,
                and I assume they lose examiners too.
                """),
                key="short-paras",
            ),
            a(
                d("""
                Noted. It also helps a methods chapter, where each paragraph can carry one procedure: site,
                design, planting, monitoring, analysis. A skeleton for the chapter file:

                ```latex
                \\chapter{Methods}
                \\label{ch:methods}

                \\section{Study site}
                \\label{sec:site}

                \\section{Experimental design}
                \\label{sec:design}

                \\section{Planting and monitoring}
                \\label{sec:planting}

                \\section{Statistical analysis}
                \\label{sec:stats}
                ```
                """)
            ),
            u("How do I reference a section? I've been typing 'Section 3.2' by hand like a caveman."),
            a(
                d("""
                With the labels above: `Section~\\ref{sec:design}` — the `~` keeps "Section" and the number on
                the same line. Or load `cleveref` (after `hyperref`) and write `\\cref{sec:design}`, which adds
                the word "Section" itself and gets it right for figures and tables too:

                ```latex
                \\usepackage[hidelinks]{hyperref}
                \\usepackage[capitalise, nameinlink]{cleveref}
                ```
                """)
            ),
            u("cleveref it is. Done for tonight, my tea went cold twice."),
            a("The sign of a productive session. Next time: planting and monitoring."),
        ],
    ),
    Session(
        "2026-02-05T18:30:00Z",
        [
            u(
                d("""
                Stats time. Sofía Ramírez — my co-supervisor, she runs the seagrass lab — says do everything in R
                so the lab can reuse the scripts.
                """),
                key="cosupervisor",
            ),
            a(
                d("""
                Sensible. Survival of individual shoots (alive/dead) in plots nested in treatment combinations
                calls for a binomial mixed model: depth and sediment as fixed effects with their interaction,
                and plot as a random intercept, because shoots in the same plot aren't independent.

                ```r
                library(lme4)
                library(readr)

                shoots <- read_csv("data/survival_october.csv")
                shoots$depth <- factor(shoots$depth, levels = c("1.5", "2.5", "3.5"))
                shoots$sediment <- factor(shoots$sediment, levels = c("sand", "muddy_sand"))

                m1 <- glmer(alive ~ depth * sediment + (1 | plot),
                            data = shoots, family = binomial)
                summary(m1)

                m0 <- update(m1, . ~ . - depth:sediment)
                anova(m0, m1)  # likelihood-ratio test of the interaction
                ```

                With four plots per combination the random-effect variance will be estimated imprecisely; say
                so in the limitations rather than worrying about it now.
                """),
                key="glmm-code",
            ),
            u(
                d("""
                ```
                Warning message:
                In checkConv(attr(opt, "derivs"), opt$par, ctrl = control$checkConv,  :
                  Model failed to converge with max|grad| = 0.00412 (tol = 0.002, component 1)
                ```
                """)
            ),
            a(
                d("""
                A gradient of 0.004 against a tolerance of 0.002 is a mild warning, common with binomial GLMMs,
                and usually harmless. Check it rather than ignore it:

                ```r
                m1b <- update(m1, control = glmerControl(optimizer = "bobyqa",
                                                         optCtrl = list(maxfun = 2e5)))
                all.equal(fixef(m1), fixef(m1b), tolerance = 1e-3)

                # or compare several optimisers at once
                library(lme4)
                aa <- allFit(m1)
                summary(aa)$fixef
                ```

                If the fixed effects agree across optimisers to two or three decimals, the warning is a false
                alarm; report the bobyqa fit and mention the check in one sentence.
                """)
            ),
            u(
                d("""
                bobyqa converges cleanly and the estimates match to 3 decimals. Interaction LRT:

                ```
                   npar    AIC    BIC  logLik deviance  Chisq Df Pr(>Chisq)
                m0    5 1688.2 1714.6 -839.10   1678.2
                m1    7 1679.9 1716.8 -832.95   1665.9 12.31  2   0.002125 **
                ```
                """)
            ),
            a(
                d("""
                So the interaction matters (χ² = 12.31, df = 2, p = 0.002): the effect of depth on survival
                depends on the sediment. In the results, report it like this:

                > Survival depended on the interaction between depth and sediment type (likelihood-ratio test,
                > χ²₂ = 12.31, p = 0.002).

                In LaTeX: `($\\chi^2_{2} = 12.31$, $p = 0.002$)`. Then show what the interaction looks like —
                predicted survival per combination with confidence intervals — since a significant interaction
                in a table of coefficients means little to most readers.
                """)
            ),
            u(
                d("""
                For figures I'd rather use ggplot2 than anything in Python — I did one course in matplotlib and
                never want to see it again.
                """),
                key="ggplot",
            ),
            a(
                d("""
                ggplot2 suits this well. Predicted survival from the model with `emmeans`:

                ```r
                library(emmeans)
                library(ggplot2)

                pred <- as.data.frame(emmeans(m1b, ~ depth * sediment, type = "response"))

                p <- ggplot(pred, aes(x = depth, y = prob, colour = sediment, group = sediment)) +
                  geom_point(position = position_dodge(width = 0.3), size = 2.5) +
                  geom_errorbar(aes(ymin = asymp.LCL, ymax = asymp.UCL),
                                position = position_dodge(width = 0.3), width = 0.15) +
                  geom_line(position = position_dodge(width = 0.3), linetype = "dashed") +
                  scale_y_continuous("Predicted survival", limits = c(0, 1)) +
                  scale_x_discrete("Planting depth (m)") +
                  scale_colour_manual(NULL, values = c(sand = "#d08c2f", muddy_sand = "#3a6e8f"),
                                      labels = c("Sand", "Muddy sand")) +
                  theme_classic(base_size = 11)

                ggsave("figures/survival_predicted.pdf", p, width = 150, height = 100, units = "mm")
                ```

                The colours are distinguishable for the common forms of colour blindness; upload the PDF to
                the Overleaf `figures/` folder.
                """)
            ),
            u("The colours are great. Sofía will ask why not a Kaplan-Meier curve though, she loves those."),
            a(
                d("""
                Kaplan–Meier needs the time of death for each shoot, and you only have two surveys, so survival
                is interval-censored between May–July and July–October. With two time points, a binomial model
                per survey (or one model with survey as a factor) is the honest analysis. You could say exactly
                that to her — it shows you considered it.
                """)
            ),
            u("Ha, ok. I'll rehearse that sentence. Does the methods chapter need the R code in it?"),
            a(
                d("""
                Not in the chapter — describe the model in words and formula, cite R and the packages, and put
                the scripts in an appendix or a repository. For the citations, R and lme4 have official ones:
                `citation()` and `citation("lme4")` in R print the references in BibTeX, ready for your `.bib`.
                """)
            ),
            u("Oh nice, citation() is new to me."),
            a("It works for every package, so emmeans and ggplot2 get theirs the same way."),
        ],
    ),
    Session(
        "2026-02-16T20:15:00Z",
        [
            u(
                d("""
                Henrik's feedback on the literature review draft came back. Main point: it's too descriptive —
                it lists studies one after another instead of building an argument. Ouch but fair.
                """),
                key="feedback-1",
            ),
            a(
                d("""
                It's the most common comment on a first review draft, and it's fixable without new reading.
                The shift is from *organised by paper* to *organised by claim*. A way to restructure:

                1. Write the argument first, as 5–7 one-sentence claims, e.g. "Transplant survival in the
                   Baltic is limited mainly by light at depth and by sediment instability in the shallows."
                2. Make each claim a section or subsection heading (in draft form).
                3. Under each, place the studies that support, qualify or contradict it — in one paragraph,
                   compared, not summarised one by one.
                4. End each section with what's unknown, which leads to your experiment.

                If you paste one of the current paragraphs, I'll show what that looks like on your own text.
                """)
            ),
            u(
                d("""
                "Smith (2018) planted eelgrass in Denmark and found survival of 40%. Jones (2020) planted
                eelgrass in Sweden and found survival was higher at 2 m. Then Lee (2021) found that sediment
                with more organic matter reduced survival."
                """)
            ),
            a(
                d("""
                1. **Before:** "Smith (2018) planted eelgrass in Denmark and found survival of 40%."
                   **After:** "Survival of eelgrass transplants in the western Baltic varies widely, from around
                   40% in Danish trials \\parencite{smith2018}"
                   (the claim leads; the study becomes its evidence)

                2. **Before:** "Jones (2020) planted eelgrass in Sweden and found survival was higher at 2 m."
                   **After:** "and depth is one of the main reasons: \\textcite{jones2020} found higher survival
                   at 2 m than at shallower sites"
                   (linked to the claim instead of standing alone)

                3. **Before:** "Then Lee (2021) found that sediment with more organic matter reduced survival."
                   **After:** "Sediment matters as well, with organic-rich sediment reducing survival
                   \\parencite{lee2021}, although whether depth and sediment interact has not been tested
                   [CHECK: any Baltic study crossing depth and sediment]."
                   (ends on the gap your experiment fills)

                The citation keys are the ones I assume from your text; match them to your `.bib`. The [CHECK]
                is where I'm not aware of such a study — worth a search before claiming nobody has done it.
                """)
            ),
            u("That's a completely different paragraph and it's the same three studies. Magic."),
            u(
                d("""
                Henrik also said the review should be around 5,000 words. Mine is 7,300, so the restructure is
                also a cut.
                """),
                key="litrev-length",
            ),
            a(
                d("""
                Organising by claim usually shrinks a review by itself, because summaries of each study's
                methods go and only the relevant finding stays. Aim for the claims first, then see where you
                are — I'd expect 5,500 or so before any deliberate cutting.
                """)
            ),
            u("Where am I overall? Overleaf says the total is 14,200 words right now.", key="words-old"),
            a(
                d("""
                Overleaf's count (Menu → Word Count) uses TeXcount, which by default counts text in the body but
                not in figure captions or the bibliography — check what your handbook counts. If captions count,
                you can get a fuller figure by adding this at the top of `main.tex`:

                ```latex
                %TC:incbib
                %TC:group table 0 1
                %TC:group figure 0 1
                ```

                14,200 words with methods half-done and no results or discussion yet is on track for a typical
                MSc thesis of 20,000–25,000 words.
                """)
            ),
            u(
                d("""
                biber died on Overleaf:

                ```
                ERROR - BibTeX subsystem: /tmp/.../references.bib_12345.utf8, line 211, syntax error: found
                "author", expected end of entry ("}" or ")") (skipping to next "@")
                ```
                """)
            ),
            a(
                d("""
                Line 211 of `references.bib`: the entry just before `author` is missing a comma at the end of
                the previous field, or a brace is unbalanced. It usually looks like this:

                ```bibtex
                @article{lee2021,
                  title = {Sediment organic matter and eelgrass transplant survival}
                  author = {Lee, Min-jun and Park, Soo},
                  ...
                }
                ```

                — a missing comma after the `title` line. Add it, recompile, and if Overleaf still shows the
                old error, clear the cached files (the bin icon next to Recompile → "Clear cached files").
                """)
            ),
            u("It was exactly that. Pasted from Google Scholar without the comma. Thank you."),
            a("Scholar's BibTeX is famously rough — worth checking the author names and capitalisation too."),
        ],
    ),
]

QUESTIONS = [
    Question("Where was the eelgrass planted?", "Skerrvik Bay", ["supervisor"], "single-fact"),
    Question(
        "Draft the opening paragraph of the discussion chapter.",
        "British spelling",
        ["british"],
        "standing-instruction",
    ),
    Question("How do I get the glossaries package working?", "Overleaf", ["overleaf"], "preference"),
    Question("How wide is the left margin in the template?", "left=35mm", ["margin"], "code"),
    Question("What do I do on Thursdays?", "bike shop", ["bikeshop"], "single-fact"),
    Question(
        "Tighten up my methods chapter's sampling paragraph.",
        "before/after pairs",
        ["before-after"],
        "standing-instruction",
    ),
    Question(
        "What literature supports eelgrass recovering faster in sandy sediment?",
        "mark it [CHECK]",
        ["no-invent"],
        "standing-instruction",
    ),
    Question(
        "Write up the results of the depth comparison.",
        "short paragraphs",
        ["short-paras"],
        "preference",
    ),
    Question("What random effect is in the survival model?", "(1 | plot)", ["glmm-code"], "code"),
    Question("Chart shoot density through the season for the results chapter.", "ggplot2", ["ggplot"], "preference"),
    Question("How long should the literature review be?", "5,000 words", ["litrev-length"], "single-fact"),
]

CHAT = Chat(name="ws-09-thesis-writing", sessions=SESSIONS, questions=QUESTIONS)
