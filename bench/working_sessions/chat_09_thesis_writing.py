"""A master's student writes a thesis on transplanted eelgrass with an assistant over a spring: the
LaTeX template, the methods and the statistics in R, supervisors' feedback, a citation style that
changes, word counts and the submission."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, d, u

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
            u("First person or passive? 'I planted the shoots' vs 'the shoots were planted'. Henrik hasn't said."),
            a(
                d("""
                Ecology journals have largely moved to the first person, and many theses follow: "I planted"
                is shorter and clearer about who did what. The passive is still fine for procedures where the
                actor doesn't matter ("cores were dried at 60 °C"). A sensible mix: first person for decisions
                and the aims, passive for routine procedures. Ask Henrik once, then stick to it — the
                inconsistency is what examiners notice, not the choice.
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
                """),
                key="rc-req-survival-fig",
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
            u('Quick check: emmeans with type = "response" gives probabilities, not log-odds, right?'),
            a(
                d("""
                Right — on the binomial model `type = "response"` back-transforms the estimates and their
                confidence limits through the inverse logit, so `prob`, `asymp.LCL` and `asymp.UCL` are on the
                probability scale. The intervals are asymmetric around the estimate as a result, which is
                correct; don't "fix" them.
                """)
            ),
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
    Session(
        "2026-02-26T19:50:00Z",
        [
            u(
                d("""
                Plot twist: Henrik says the department has switched to Harvard for theses submitted from this
                year, APA is out. He sent me the style sheet. Can biblatex do Harvard?
                """),
                key="style-new",
            ),
            a(
                d("""
                Yes — biblatex's `authoryear` style is the basis for Harvard referencing; it needs a few
                adjustments to match a given style sheet. Replace the APA line with:

                ```latex
                \\usepackage[
                  backend=biber,
                  style=authoryear,
                  maxcitenames=2,
                  mincitenames=1,
                  maxbibnames=99,
                  uniquelist=false,
                  giveninits=true,
                  dashed=false,
                  dateabbrev=false
                ]{biblatex}
                \\addbibresource{references.bib}
                ```

                `\\textcite` and `\\parencite` keep working, so the text doesn't change — only the output.
                `maxbibnames=99` lists all authors in the reference list, while citations in the text are
                shortened to "et al.". If you paste an example from the style sheet, I'll match the details.
                """),
                key="maxcite",
            ),
            u(
                d("""
                From the sheet:

                Aalto, H. and Ramírez, S. (2023) 'Light thresholds for Zostera marina in brackish water',
                Estuarine Ecology, 12(3), pp. 101–118.

                In text: (Aalto and Ramírez 2023), three or more authors (Lind et al. 2019).
                """)
            ),
            a(
                d("""
                Differences from plain `authoryear`: single quotes around article titles, the journal not
                preceded by "In:", the volume(issue) format, "pp." before pages, and no comma between name and
                year in citations. Add after loading biblatex:

                ```latex
                \\DeclareFieldFormat[article]{title}{\\mkbibquote{#1}}
                \\renewbibmacro{in:}{%
                  \\ifentrytype{article}{}{\\printtext{\\bibstring{in}\\intitlepunct}}}
                \\DeclareFieldFormat[article]{volume}{#1}
                \\DeclareFieldFormat[article]{number}{\\mkbibparens{#1}}
                \\renewbibmacro*{volume+number+eid}{%
                  \\printfield{volume}%
                  \\printfield{number}}
                \\DeclareFieldFormat{pages}{pp.~#1}
                \\renewcommand*{\\nameyeardelim}{\\addspace}
                \\DeclareDelimFormat{finalnamedelim}{\\addspace\\bibstring{and}\\space}
                ```

                And for single rather than double quotes with British English, tell csquotes:

                ```latex
                \\usepackage[british=british]{csquotes}
                \\DeclareQuoteStyle[british]{english}{\\mbox{}'}{'}{\\mbox{}"}{"}
                ```
                """)
            ),
            u("Two-author works: does it give both names? the sheet wants both for two, et al. from three."),
            a(
                d("""
                Yes, with the options above a two-author work shows both names — "(Aalto and Ramírez 2023)" —
                and three or more collapse to the first author plus "et al.". `uniquelist=false` stops biblatex
                from adding extra names when two different "Lind et al. 2019" papers would otherwise look the
                same; for those you'll get "2019a" and "2019b" instead, which is what Harvard sheets usually
                ask for.
                """)
            ),
            u(
                d("""
                ```
                WARN - Duplicate entry key 'orth2006' in file 'references.bib', skipping ...
                WARN - I didn't find a database entry for 'orth2006a' (section 0)
                ```
                """)
            ),
            a(
                d("""
                Two `@article{orth2006, ...}` entries exist in the `.bib` — probably the same paper imported
                twice, or two different 2006 papers that got the same key. biber keeps the first and skips the
                second, and somewhere you cite `orth2006a`, which exists in neither.

                Search the file for `orth2006`. If they're the same paper, delete one; if they're different
                papers, rename them `orth2006a` and `orth2006b` and check each citation points to the right
                one. Overleaf's search (Ctrl+F with "Search in all files") finds the citations.
                """)
            ),
            u("Two different papers, both Orth 2006. Renamed, both resolve."),
            a("Good. biblatex will now print them as 2006a and 2006b in the text automatically."),
            u("Do I need page numbers for direct quotes in Harvard?"),
            a(
                d("""
                Yes, Harvard sheets almost always want them for direct quotations. The optional argument
                carries them:

                ```latex
                \\textcite[p.~12]{aalto2023} argue that ``light, not temperature, sets the lower limit''.
                ... as noted earlier \\parencite[pp.~104--105]{aalto2023}.
                ```

                With `british` csquotes, use `\\enquote{...}` instead of the backtick quotes, so the quote
                marks follow the style everywhere.
                """)
            ),
            u("Snow day here, the bay froze at the edges. First time in years apparently."),
            a(
                d("""
                Worth a note in your field diary — if the ice reached the shallow plots, ice scour could be part
                of why the 1.5 m plots do badly over winter. A photo with a date would make a nice line in the
                discussion, even though your survival surveys ended in October.
                """)
            ),
            u("The shallow plots are right where the ice is. Huh. Another thing for the discussion."),
            a("Keep a running list of discussion points in a comment at the top of that chapter's file."),
        ],
    ),
    Session(
        "2026-03-09T20:00:00Z",
        [
            u(
                d("""
                Results chapter. Final numbers from the surveys: in July 1,103 shoots were alive, and at the
                October survey 612 of the shoots were alive. The best combination by far is 2.5 m on sand.
                """),
                key="survived",
            ),
            a(
                d("""
                A first draft of the opening of the results, in short paragraphs:

                > Of the 1,440 shoots planted in May, 1,103 (77%) were alive in July and 612 (42.5%) in October.
                > Survival declined between surveys in every treatment combination.
                >
                > Survival depended on the interaction between depth and sediment type (likelihood-ratio test,
                > χ²₂ = 12.31, p = 0.002). Shoots planted at 2.5 m in sand survived best, and those at 1.5 m in
                > muddy sand worst (Figure~\\ref{fig:survival}).

                I've left out any interpretation — why 2.5 m on sand does best belongs in the discussion. The
                percentages are worth checking against your spreadsheet; I computed them from the counts you
                gave.
                """)
            ),
            u("Can I have the per-combination numbers as a table? Counts and percentages for both surveys."),
            a(
                d("""
                ```latex
                \\begin{table}[htbp]
                  \\centering
                  \\caption{Surviving shoots per treatment combination (of 240 planted in each).}
                  \\label{tab:survival}
                  \\begin{tabular}{l l S[table-format=3.0] S[table-format=2.0] S[table-format=3.0] S[table-format=2.0]}
                    \\toprule
                    & & \\multicolumn{2}{c}{July} & \\multicolumn{2}{c}{October} \\\\
                    \\cmidrule(lr){3-4} \\cmidrule(lr){5-6}
                    {Depth (m)} & {Sediment} & {n} & {\\%} & {n} & {\\%} \\\\
                    \\midrule
                    1.5 & Sand       & 0 & 0 & 0 & 0 \\\\
                    1.5 & Muddy sand & 0 & 0 & 0 & 0 \\\\
                    2.5 & Sand       & 0 & 0 & 0 & 0 \\\\
                    2.5 & Muddy sand & 0 & 0 & 0 & 0 \\\\
                    3.5 & Sand       & 0 & 0 & 0 & 0 \\\\
                    3.5 & Muddy sand & 0 & 0 & 0 & 0 \\\\
                    \\bottomrule
                  \\end{tabular}
                \\end{table}
                ```

                The zeros are placeholders — fill them from your spreadsheet rather than from me. The `S`
                columns from `siunitx` align the numbers on their digits.
                """)
            ),
            u(
                d("""
                ```
                ! Misplaced alignment tab character &.
                l.14     1.5 & Sand & mud
                ```

                (I renamed "Muddy sand" to "Sand & mud" to save width)
                """)
            ),
            a(
                d("""
                A bare `&` separates columns in a table, so "Sand & mud" became an extra column. Escape it:

                ```latex
                1.5 & Sand \\& mud & 188 & 78 & 101 & 42 \\\\
                ```

                (numbers illustrative). Be consistent though: if the methods call it "muddy sand", the table
                should too, or a reader wonders whether it's a third sediment type.
                """)
            ),
            u("Fair, back to muddy sand. Now the shoot density figure — I have counts per plot in July and October."),
            a(
                d("""
                In ggplot2, with plot-level means and the individual plots shown as points:

                ```r
                library(dplyr)
                library(ggplot2)

                dens <- read_csv("data/density_plots.csv")  # plot, depth, sediment, survey, shoots_m2

                p <- ggplot(dens, aes(x = survey, y = shoots_m2, colour = sediment)) +
                  geom_jitter(width = 0.08, alpha = 0.5, size = 1.5) +
                  stat_summary(aes(group = sediment), fun = mean, geom = "line") +
                  stat_summary(fun = mean, geom = "point", size = 3) +
                  facet_wrap(~ depth, labeller = labeller(depth = function(x) paste(x, "m"))) +
                  scale_colour_manual(NULL, values = c(sand = "#d08c2f", muddy_sand = "#3a6e8f"),
                                      labels = c("Sand", "Muddy sand")) +
                  labs(x = NULL, y = expression("Shoot density (shoots m"^-2*")")) +
                  theme_classic(base_size = 11)

                ggsave("figures/density.pdf", p, width = 160, height = 70, units = "mm")
                ```

                Same colours as the survival figure, so sediment reads the same way throughout the thesis.
                """)
            ),
            u("How do I put the survival figure and this one side by side, as (a) and (b)?"),
            a(
                d("""
                With `subcaption`:

                ```latex
                \\usepackage{subcaption}  % in the preamble

                \\begin{figure}[htbp]
                  \\centering
                  \\begin{subfigure}[b]{0.48\\textwidth}
                    \\includegraphics[width=\\linewidth]{survival_predicted}
                    \\caption{}
                    \\label{fig:survival}
                  \\end{subfigure}
                  \\hfill
                  \\begin{subfigure}[b]{0.48\\textwidth}
                    \\includegraphics[width=\\linewidth]{density}
                    \\caption{}
                    \\label{fig:density}
                  \\end{subfigure}
                  \\caption{(a) Predicted survival in October by depth and sediment, with 95\\% confidence
                    intervals. (b) Shoot density per plot in July and October.}
                  \\label{fig:results}
                \\end{figure}
                ```

                The density figure is wide (three facets), so it may read better full-width below the other
                rather than beside it — try both and see.
                """)
            ),
            u(
                d("""
                Edit this please: "The results show that survival was significantly affected by depth and also
                by sediment and that there was an interaction that was significant between them."
                """)
            ),
            a(
                d("""
                1. **Before:** "The results show that survival was significantly affected by depth and also by
                   sediment"
                   **After:** "Survival depended on depth and sediment"
                   ("the results show" is implied in a results chapter)

                2. **Before:** "and that there was an interaction that was significant between them."
                   **After:** ", and the two interacted (χ²₂ = 12.31, p = 0.002)."
                   (the statistic replaces the word "significant")

                Together: "Survival depended on depth and sediment, and the two interacted (χ²₂ = 12.31,
                p = 0.002)."
                """)
            ),
            u("How many decimals for p-values?"),
            a(
                d("""
                Common practice in ecology: three decimals (p = 0.002), and "p < 0.001" below that rather than
                a string of zeros. Check your handbook or Henrik's preference, then be consistent — examiners
                notice p = 0.02 next to p = 0.0213.
                """)
            ),
            u("3 decimals. ok, bed. this chapter is actually taking shape"),
            a("It is. Next time: the remaining paragraphs on July versus October."),
        ],
    ),
    Session(
        "2026-03-23T19:30:00Z",
        [
            u(
                d("""
                Henrik read the results draft. His main complaint this time: the chapter mixes in
                interpretation — sentences like "this suggests light limitation at depth" belong in the
                discussion, not the results.
                """),
                key="feedback-2",
            ),
            a(
                d("""
                A quick test for every sentence in the results: could it be checked against your data alone?
                "Survival at 3.5 m was lower than at 2.5 m" — yes, it stays. "This suggests light limitation" —
                no, it needs reasoning or literature, so it moves. Moved sentences aren't lost: collect them in
                the discussion file as the seeds of its paragraphs.

                If you paste the paragraphs he marked, I'll split them.
                """)
            ),
            u(
                d("""
                "Survival at 3.5 m was low in both sediments, which suggests that light limitation at this depth
                is the main factor, as Baltic waters are turbid in summer."
                """)
            ),
            a(
                d("""
                1. **Before:** "Survival at 3.5 m was low in both sediments, which suggests that light limitation
                   at this depth is the main factor, as Baltic waters are turbid in summer."
                   **After (results):** "Survival at 3.5 m was low in both sediments (Table~\\ref{tab:survival})."

                2. **Moved to the discussion:** "Low survival at 3.5 m in both sediments points to light
                   limitation, since Baltic coastal waters are turbid in summer [CHECK: a source on summer
                   light attenuation in the western Baltic]."

                The results sentence now states the finding and points to the evidence; the interpretation
                gets room (and a citation) where it belongs.
                """)
            ),
            u("Sofía wants the sediment grain size in the methods too. We measured median grain size per plot."),
            a(
                d("""
                It strengthens the sediment factor: it shows "sand" and "muddy sand" were measurably different,
                not just labels. One sentence in the site or design section, and the method in one more:

                > Sediment cores (5 cm depth) were taken from each plot in May, and median grain size was
                > determined by dry sieving.

                What were the medians for the two types?
                """)
            ),
            u("0.21 mm for the sand plots and 0.09 mm for the muddy sand, organic content 0.8% vs 3.1%."),
            a(
                d("""
                Then:

                > Median grain size was 0.21 mm in the sand plots and 0.09 mm in the muddy sand plots, and
                > organic content was 0.8% and 3.1% respectively.

                In LaTeX with siunitx: `\\qty{0.21}{\\milli\\metre}` and `\\qty{3.1}{\\percent}`. If you have
                per-plot values, a small table in the appendix lets a reader check the spread.
                """)
            ),
            u(
                d("""
                Overleaf keeps timing out: "Your project took too long to compile and timed out". It was fine
                last week.
                """)
            ),
            a(
                d("""
                On the free plan the limit is short; with the university licence it's longer but still finite.
                Usual causes, cheapest fixes first:

                1. **Large figures.** A PDF with thousands of points (or an embedded high-resolution map) is
                   slow to include. Check the file sizes in `figures/`.
                2. **Compile only what you're working on:** `\\includeonly{chapters/04-results}` in the
                   preamble while drafting.
                3. **Draft mode** skips images: `\\documentclass[12pt, a4paper, oneside, draft]{report}` — boxes
                   instead of figures, very fast.
                4. Clear cached files, in case an old auxiliary file is causing repeated runs.
                """)
            ),
            u("figures/site_map.pdf is 14 MB. The ggplot exports are small, the map is the monster."),
            a(
                d("""
                A map with satellite imagery or a dense coastline saved as vector PDF gets huge. Save that one
                figure as a high-resolution PNG instead — for a printed thesis, 300 dpi at final size is plenty:

                ```r
                ggsave("figures/site_map.png", map_plot, width = 150, height = 120, units = "mm", dpi = 300)
                ```

                and `\\includegraphics[width=\\textwidth]{site_map}` finds the PNG automatically once the PDF is
                gone. The plots stay as PDF, so their text remains crisp.
                """)
            ),
            u("1.1 MB PNG, compiles in 20 seconds now. Thank you!"),
            a("A big difference. Keep vector output for the plots and raster for the map from now on."),
            u("Sofía wants our survival data cited as a dataset — it's in the lab's repository with a DOI."),
            a(
                d("""
                biblatex has a `@dataset` entry type:

                ```bibtex
                @dataset{ramirez2025data,
                  author    = {Ramírez, Sofía and Aalto, Henrik},
                  title     = {Eelgrass transplant survival in Skerrvik Bay, 2025},
                  publisher = {Kessling University Seagrass Lab},
                  year      = {2025},
                  doi       = {10.xxxx/xxxxx},
                  version   = {1.0}
                }
                ```

                Replace the DOI with the real one from the repository page, and check whose names go in the
                author field — the repository's landing page usually shows the preferred citation.
                """)
            ),
            u("Bike shop was chaos today, spring rush. Everyone discovers their tyres are flat at the same time."),
            a("The annual migration. Hopefully Tuesday is calmer for the discussion chapter."),
        ],
    ),
    Session(
        "2026-04-07T20:10:00Z",
        [
            u(
                d("""
                Lots of news. The extension came through: my submission date is June 26 now — the registry
                accepted the fieldwork delay from when the boat's engine died last summer. Henrik is away at a
                conference for two weeks, so Sofía reads drafts in the meantime. And the discussion is half done,
                which I'll believe when I see it.
                """),
                key="extension",
            ),
            a(
                d("""
                Good news all round. With June 26, a revised plan that keeps the slack at the end:

                - **by Apr 24**: discussion drafted (Sofía reads it while Henrik's away)
                - **by May 8**: introduction revised to match what the discussion ends up arguing; abstract
                - **May 11–29**: full draft to Henrik, revisions
                - **June 1–19**: formatting, references, proofreading, figures at final size
                - **June 26**: submission, ideally a few days early

                Writing the introduction last is deliberate: it should promise exactly what the discussion
                delivers.
                """)
            ),
            u("How should the discussion be structured? I keep writing it in the order of the results."),
            a(
                d("""
                Order it by argument instead. A structure that works for an experiment like yours:

                1. **Main finding in one paragraph** — the depth × sediment interaction and what it means for
                   restoration.
                2. **Depth** — why 3.5 m failed (light), why 1.5 m failed (ice scour, waves, temperature).
                3. **Sediment** — why sand did better, linking to the grain size and organic content.
                4. **The interaction** — why sediment matters more at some depths.
                5. **Limitations** — one season, four plots per combination, two surveys.
                6. **Implications for restoration in the Baltic** — what a practitioner should do.

                Each section opens with your result and then brings in the literature, not the other way
                round.
                """)
            ),
            u(
                d("""
                Edit this one, it's the ice bit: "It is possible that the ice which formed in the bay in the
                winter might have possibly damaged the shoots in the shallow plots."
                """)
            ),
            a(
                d("""
                1. **Before:** "It is possible that the ice which formed in the bay in the winter might have
                   possibly damaged"
                   **After:** "Ice forming along the shore in winter may have damaged"
                   (one hedge is enough — "possible", "might" and "possibly" say the same thing three times)

                2. **Before:** "the shoots in the shallow plots."
                   **After:** "the shoots in the 1.5 m plots, although the October survey preceded the ice, so
                   this cannot explain the losses measured here."
                   (the timing matters: your surveys ended before the freeze)

                The second change is a content point, not just style: ice in February can't explain deaths
                before October. It may explain what happens next season — so it belongs under future work.
                """)
            ),
            u(
                "Good catch, that would have been embarrassing. "
                "Is there a paper on light limiting eelgrass at 3.5 m in the Baltic?"
            ),
            a(
                d("""
                I'm not certain of a specific paper for that depth and region, so I won't name one: [CHECK: a
                study measuring light at the lower depth limit of Zostera marina in the western Baltic]. Places
                likely to have it: the reference lists of recent Baltic eelgrass restoration studies, and work
                from the institutes monitoring Baltic seagrass. Search terms: "Zostera marina depth limit light
                Baltic", "eelgrass maximum depth attenuation coefficient".
                """)
            ),
            u(
                "Sofía's own 2023 paper with Henrik measured light at our site — "
                "the Aalto and Ramírez one from the style sheet."
            ),
            a(
                d("""
                Even better: a source from your own site. In the text:

                ```latex
                At our site, light at \\qty{3.5}{\\metre} falls below the threshold for
                \\emph{Zostera marina} in summer \\parencite{aalto2023}, which is consistent with the
                low survival in both sediments.
                ```

                Check the paper's actual numbers before writing "falls below the threshold" — if they give a
                percentage of surface light at 3.5 m, quote it with the page.
                """)
            ),
            u("Should I define PSU and GLMM at first use, or in a list of abbreviations?"),
            a(
                d("""
                Both, usually: spell each out at first use in the main text ("generalised linear mixed model
                (GLMM)"), and add a list of abbreviations after the table of contents if you have more than a
                handful. Check whether the handbook asks for the list; many do for MSc theses.
                """)
            ),
            u("What goes in the limitations section? I don't want to trash my own thesis."),
            a(
                d("""
                Limitations done well make a thesis look stronger, because they show you know the design's
                edges. For yours:

                - **One season**: survival to October says nothing about overwintering.
                - **Four plots per combination**: enough for the main effects, weak for estimating plot
                  variation.
                - **Two surveys**: timing of mortality is unknown within each interval.
                - **One bay**: Skerrvik Bay's sheltered conditions may not transfer to exposed coasts.

                For each, one sentence on what it means for your conclusions and one on how a future study
                could address it. That turns the section into a bridge to future work.
                """)
            ),
        ],
    ),
    Session(
        "2026-04-29T19:45:00Z",
        [
            u(
                d("""
                Progress report: Overleaf's count is 21,850 words, discussion done, conclusion still to write.
                The limit is 25,000 excluding references and appendices.
                """),
                key="words-new",
            ),
            a(
                d("""
                That leaves about 3,000 words of room — enough for a conclusion of 800–1,200 words and the
                abstract, with a margin for the introduction revision. It also means no chapter needs cutting,
                which is a nice place to be in May.
                """)
            ),
            u(
                d("""
                Abstract draft (it's 340 words, limit is 300):

                "Seagrass meadows are important coastal ecosystems which provide many ecosystem services such as
                carbon storage, nursery habitat and sediment stabilisation, but they have declined globally and
                also in the Baltic Sea. Restoration by transplanting shoots is one way to help them recover but
                survival of the transplanted shoots is often low. In this thesis I investigated ..."
                """)
            ),
            a(
                d("""
                1. **Before:** "Seagrass meadows are important coastal ecosystems which provide many ecosystem
                   services such as carbon storage, nursery habitat and sediment stabilisation, but they have
                   declined globally and also in the Baltic Sea."
                   **After:** "Seagrass meadows store carbon, shelter juvenile fish and stabilise sediment, but
                   they have declined worldwide, including in the Baltic Sea."
                   (38 words → 22; the services become verbs)

                2. **Before:** "Restoration by transplanting shoots is one way to help them recover but survival of
                   the transplanted shoots is often low."
                   **After:** "Transplanting shoots can restore meadows, but transplant survival is often low."
                   (21 → 11)

                3. **Before:** "In this thesis I investigated"
                   **After:** "I tested how planting depth and sediment type affect"
                   (the aim, directly)

                Those three alone save about 30 words. The rest usually comes from the methods sentences — an
                abstract needs the design in one sentence, not the full procedure.
                """)
            ),
            u("Down to 296. Conclusion: how is it different from the discussion? Feels like repeating myself."),
            a(
                d("""
                The discussion argues; the conclusion states. The conclusion answers the aims from the
                introduction one by one, in a sentence or two each, then gives the practical recommendation and
                one line of future work — no new citations, no new results.

                > Transplanted eelgrass in Skerrvik Bay survived best at 2.5 m on sand, and the effect of depth
                > depended on sediment type. For restoration in sheltered Baltic bays, this points to
                > intermediate depths and sandy sediment as the first choice of planting site.
                >
                > Whether the pattern holds over winter, and on exposed coasts, remains to be tested.

                A short conclusion is a strength; examiners read it right after the discussion.
                """)
            ),
            u(
                d("""
                Acknowledgements: I want to thank Henrik and Sofía, Jonas the boat skipper, the three volunteer
                divers (Aino, Mats, Helga), and my parents. Help me not make it cringe.
                """)
            ),
            a(
                d("""
                > I thank my supervisor, Henrik Aalto, for his guidance and his candid feedback, and my
                > co-supervisor, Sofía Ramírez, for welcoming me into the seagrass lab and for her patience
                > with my statistics. The fieldwork would not have been possible without Jonas, who kept the
                > boat running (mostly), and the volunteer divers Aino, Mats and Helga, who planted 1,440
                > shoots in cold water. Finally, thank you to my parents for their support throughout.

                Adjust the tone to yours — the "(mostly)" is optional, but acknowledgements are the one place
                where a little personality is expected.
                """),
                key="rc-req-thanks",
            ),
            u("Keeping the (mostly). Jonas will love it. How do I limit the table of contents to sections?"),
            a(
                d("""
                In the preamble:

                ```latex
                \\setcounter{tocdepth}{1}   % chapters and sections
                \\setcounter{secnumdepth}{2} % still number subsections in the text
                ```

                And to add the list of abbreviations and the acknowledgements to the contents without numbers:

                ```latex
                \\chapter*{Acknowledgements}
                \\addcontentsline{toc}{chapter}{Acknowledgements}
                ```
                """)
            ),
            u("Henrik read the discussion and said 'much better'. From him that's basically a parade."),
            a("Then enjoy the parade — that was the chapter with the most structural work in it."),
            u("Also noticed the figure numbering jumps from 3.2 to 3.4. Where did 3.3 go?"),
            a(
                d("""
                Usually a `\\caption` in a figure that never got `\\label`'d or placed — or a subfigure
                `\\caption{}` counting as a figure because `subcaption` isn't loaded in that chapter's scope.
                More often, a figure environment commented out *after* its `\\caption` line but before
                `\\end{figure}`. Search chapter 3 for `\\caption`; the list of figures (`\\listoffigures`) shows
                which one is numbered 3.3.
                """)
            ),
            u("It was the old site photo I'd commented out halfway. Gone now."),
            a("Good — a compile or two and the numbers settle."),
        ],
    ),
    Session(
        "2026-06-02T21:00:00Z",
        [
            u(
                d("""
                Final stretch. The registry's formatting rules want a title page with the university crest,
                degree, supervisor names and the submission date, plus a signed declaration.
                """)
            ),
            a(
                d("""
                A title page that doesn't depend on the class's `\\maketitle`:

                ```latex
                \\begin{titlepage}
                  \\centering
                  \\includegraphics[width=40mm]{kessling_crest}\\par\\vspace{15mm}
                  {\\LARGE\\bfseries Survival of transplanted eelgrass (\\emph{Zostera marina})
                    in Skerrvik Bay: effects of planting depth and sediment type\\par}
                  \\vspace{15mm}
                  {\\large Master's thesis in Marine Ecology\\par}
                  \\vspace{10mm}
                  {\\large Supervisor: Dr.\\ Henrik Aalto\\\\ Co-supervisor: Dr.\\ Sofía Ramírez\\par}
                  \\vfill
                  {\\large Kessling University\\\\ June 2026\\par}
                \\end{titlepage}
                ```

                For the declaration, the registry usually provides the exact wording; put it on its own page
                after the title page with `\\chapter*{Declaration}` and leave space for the signature.
                """),
                key="rc-req-titlepage",
            ),
            u("They also require PDF/A. What?"),
            a(
                d("""
                PDF/A is an archival PDF: fonts embedded, no transparency issues, metadata included. The `pdfx`
                package produces it from pdfLaTeX. Create a file `main.xmpdata` next to `main.tex`:

                ```latex
                \\Title{Survival of transplanted eelgrass in Skerrvik Bay}
                \\Author{Your Name}
                \\Language{en-GB}
                \\Keywords{eelgrass\\sep Zostera marina\\sep restoration\\sep Baltic Sea}
                ```

                and load the package first thing after `\\documentclass`:

                ```latex
                \\usepackage[a-2b]{pdfx}
                ```

                `pdfx` loads `hyperref` itself, so remove your own `\\usepackage[hidelinks]{hyperref}` and
                pass the options with `\\hypersetup{hidelinks}` instead.
                """)
            ),
            u(
                d("""
                ```
                ! LaTeX Error: Option clash for package hyperref.
                ```
                """)
            ),
            a(
                d("""
                The own `hyperref` line is still there, or `cleveref`'s loading order pulls it in with different
                options. Remove `\\usepackage[hidelinks]{hyperref}`, keep `cleveref` after `pdfx`, and set:

                ```latex
                \\usepackage[a-2b]{pdfx}
                \\hypersetup{hidelinks}
                ...
                \\usepackage[capitalise, nameinlink]{cleveref}
                ```

                Then check the result with a validator (veraPDF is free) — the registry will.
                """)
            ),
            u("veraPDF says compliant. Checklist before I upload?"),
            a(
                d("""
                | Check | How |
                |---|---|
                | Every citation resolves | no "??" or bold keys in the PDF; search the log for `undefined` |
                | Every figure and table is referred to in the text | search for each `\\ref` label |
                | Word count within the limit | Overleaf's count, with the handbook's rules on what counts |
                | Title page, declaration signed | print, sign, scan as the registry requires |
                | British spelling | Overleaf spell check set to English (British), one full pass |
                | PDF/A | veraPDF |
                | Page numbers, margins | compare against the handbook page by page for chapter 1 |
                | File name | as the registry specifies |

                And read the abstract and the conclusion aloud one last time. They're the parts everyone reads.
                """)
            ),
            u("Any advice for the viva? It's in July."),
            a(
                d("""
                A few:

                - Reread the thesis a week before, with a pencil, and note what you'd change — "what would you
                  do differently?" is a near-certain question.
                - Prepare a two-minute summary of the thesis in your own words.
                - Have an answer ready for the design choices, e.g. why not a Kaplan–Meier analysis (the two
                  surveys) and why four plots per combination.
                - Know your limitations section well; examiners often start there.

                And remember the examiners want the viva to go well — it's a conversation about your work.
                """)
            ),
            u("Can I keep a copy of the Overleaf project with all its history, for my own records?"),
            a(
                d("""
                Menu → Download → Source gives a zip of the current files; the history itself stays in
                Overleaf. For a true archive, Overleaf's Git integration (Menu → Git) lets you clone the
                project, which includes every version as commits:

                ```bash
                git clone https://git.overleaf.com/<project-id> thesis-archive
                ```

                Keep the zip and the final PDF together somewhere outside Overleaf as well.
                """)
            ),
            u("I'm going to submit on the 19th, a week early. Thank you for the whole ride."),
            a("Congratulations — it's been a pleasure. Enjoy the week you gave yourself, and good luck in July."),
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
    Question(
        "How many author names can an in-text citation show before it switches to et al.?",
        "maxcitenames=2",
        ["maxcite"],
        "code",
    ),
    Question(
        "Which citation style does the thesis follow?",
        "Harvard",
        ["style-new"],
        "knowledge-update",
        superseded=["style-old"],
    ),
    Question(
        "When is the thesis due?",
        "June 26",
        ["extension"],
        "knowledge-update",
        superseded=["planted", "deadline-old"],
    ),
    Question(
        "What's my current word count?",
        "21,850",
        ["words-new"],
        "knowledge-update",
        superseded=["words-old"],
    ),
    Question(
        "Who supervises my thesis?",
        "Henrik Aalto; Sofía Ramírez",
        ["supervisor", "cosupervisor"],
        "multi-turn",
    ),
    Question(
        "What were Henrik's main criticisms of my drafts?",
        "too descriptive; mixes in interpretation",
        ["feedback-1", "feedback-2"],
        "multi-turn",
    ),
    Question(
        "How many shoots did we plant, and how many were still alive in October?",
        "1,440 shoots; 612",
        ["planted", "survived"],
        "multi-turn",
    ),
    Question(
        "Make the survival figure show the July survey too, next to October.",
        "emmeans",
        ["rc-req-survival-fig"],
        "request-context",
    ),
    Question(
        "Add my student number and the submission date to the front page.",
        "Kessling University",
        ["rc-req-titlepage"],
        "request-context",
    ),
    Question(
        "Update the thank-you section to include Maja from the lab, who ran the grain-size samples.",
        "kept the boat running",
        ["rc-req-thanks"],
        "request-context",
    ),
]

CHAT = Chat(name="ws-09-thesis-writing", sessions=SESSIONS, questions=QUESTIONS)
