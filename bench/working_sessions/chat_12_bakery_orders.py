"""The owner of a small bakery in Frome, not a trained developer, building an online pre-order site with
Django and a Stripe checkout with an assistant's help over three months: models and forms, pickup
slots, a daily production report for the head baker, flour prices and suppliers that change, opening
hours and closures, staff logins, a time-zone bug when the clocks go forward, hosting costs, and the
family and the shop in between."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, u, w

S1 = Session(
    "2026-01-13T20:40:00Z",
    [
        u(
            w(
                r"""
                Right, I'm going to try to explain this without sounding mad. I run Wren Street Bakery in
                Frome, it's me, my head baker Josh, Priya on the counter in the mornings, and a Saturday
                girl called Bea who's doing her A levels. We've been open since 2019. Orders at the moment
                come in by phone, by Instagram DM, by people shouting at me across the counter, and they
                all go in a paper book by the till. Every week something gets missed and every week
                someone doesn't turn up for six loaves we baked specially for them.

                What I want is a little website where people pick what they want, pick when they're
                collecting, pay up front, and then Josh and I get a list of what to bake. That's it. Not
                a shop with delivery, not an app.

                What we sell (the things people pre-order, anyway):

                - White sourdough, £4.20
                - Seeded rye, £4.80
                - Country loaf (half wholemeal), £3.90
                - Baguette, £1.90
                - Cinnamon buns, £2.60 each, people usually get four

                About me: I did a Django Girls workshop at the library two years ago and got a blog
                working, so I know roughly what a model is. I've got a laptop that runs Windows, and I've
                got evenings after Tilly (she's nine) is in bed. A friend quoted me £3,500 to build this
                and I nearly choked on my tea. Can we do it together?
                """
            ),
            key="s1-intro",
        ),
        a(
            w(
                r"""
                Yes, we can, and what you've described is a very sensible size for a first project:
                a catalogue of a handful of products, an order with a pickup time, a payment, and a
                list for the bakehouse. Django is a good fit because you've touched it before and because
                its admin pages give you a back office for free, so you won't need to build screens for
                adding products or looking at orders.

                Here's how I'd break it into pieces, roughly one or two evenings each:

                1. **Set up the project on your laptop** and describe the data: products, orders, the
                   items in an order.
                2. **The order form**: customers choose loaves and quantities, then a pickup day and time.
                3. **Pickup slots**: only offer times when you're open, and stop too many people arriving
                   at once.
                4. **Payment with Stripe**: the customer is sent to Stripe's own checkout page, pays, and
                   comes back. You never see or store card numbers.
                5. **Put it online** somewhere cheap.
                6. **The production report**: a daily list of what to bake, by product, for Josh.

                After that it's refinements: closures, staff logins, emails, whatever the first weeks
                show you need.

                Two questions so I set things up right for your laptop:

                - Do you have Python installed, and if so which version? Open the Start menu, type
                  "cmd", press Enter, and in the black window type `python --version`.
                - Is there a folder where you keep your projects, or shall we make one?
                """
            )
        ),
        u(
            w(
                r"""
                It says Python 3.11.4. No projects folder, the Django Girls blog is lost somewhere on
                the old laptop.

                And a request before we start, because I lost most of an evening to this last time:
                whenever you give me commands to type, tell me first which folder I need to be in. The
                tutorial kept saying "run this" and I was running it in the wrong place and getting
                errors that made no sense.
                """
            ),
            key="si-folder",
        ),
        a(
            w(
                r"""
                Understood. Every time I give you commands I'll start by saying which folder to be in,
                and how to get there.

                Let's make a home for the project. **Be in your user folder** — that's where the command
                window opens by default, it will show something like `C:\Users\Ros>`.

                ```
                mkdir bakery
                cd bakery
                python -m venv .venv
                .venv\Scripts\activate
                pip install "django>=5.2,<5.3"
                django-admin startproject config .
                python manage.py startapp orders
                ```

                What each line does:

                - `mkdir bakery` makes a folder called `bakery`, and `cd bakery` goes into it. From now
                  on, **almost everything happens in `C:\Users\Ros\bakery`**, and I'll call that "the
                  project folder".
                - `python -m venv .venv` makes a private box of Python packages just for this project, so
                  nothing you install here can break anything else on the laptop.
                - `.venv\Scripts\activate` switches that box on. You'll see `(.venv)` at the start of the
                  line. You need to do this each time you open a new command window, in the project
                  folder.
                - `django-admin startproject config .` creates the settings (in a folder called
                  `config`) and `manage.py`, the script you run every Django command through. The dot
                  at the end means "here", so you don't get a folder inside a folder.
                - `startapp orders` creates an app called `orders` where our code will live.

                When that's done, open the project folder in an editor. If you don't have one, VS Code
                is free and fine; Notepad will also work but won't help you spot mistakes.
                """
            )
        ),
        u(
            w(
                r"""
                Done, I've got (.venv) and a folder called orders. VS Code installed.

                Another thing while I remember: anything customers will see, never use the word
                "artisan". Every bakery within fifty miles says artisan and it means nothing. Same goes
                for "crafted". We make bread.
                """
            ),
            key="si-artisan",
        ),
        a(
            'Agreed, and noted for anything customer-facing: no "artisan", no "crafted". Plain words about '
            "bread. Shall we describe the products and orders next?"
        ),
        u(
            w(
                r"""
                Yes. Oh, and one more while we're at it. That "venv" in the commands, I looked it up and
                it's a "virtual environment", which the tutorial also said constantly and I nodded along.
                When you use a technical word for the first time, explain it in a sentence in plain
                English. I don't mind learning words, I mind pretending I know them.
                """
            ),
            key="si-plain",
        ),
        a(
            w(
                r"""
                That's a fair rule and I'll keep to it. For the record: a **virtual environment** is
                exactly the "private box of packages" from before, `.venv` is just its name.

                Now the data. In Django, a **model** is a description of one kind of thing you want to
                keep, written as a Python class; Django turns each model into a table in a database (a
                **database** is just a file or program that keeps rows of information safely, like a
                very strict spreadsheet). We need three models:

                - `Product`: a loaf or bun you sell.
                - `Order`: one customer's order, with their name, contact, pickup time and whether it's
                  paid.
                - `OrderItem`: one line of an order, e.g. "2 × seeded rye". An order has one or more.

                Replace everything in `orders/models.py` with this:

                ```python
                from django.db import models


                class Product(models.Model):
                    name = models.CharField(max_length=80)
                    description = models.TextField(blank=True)
                    price_pence = models.PositiveIntegerField(help_text="Price in pence, e.g. 420 for £4.20")
                    active = models.BooleanField(default=True, help_text="Untick to hide it from the order page")
                    sort_order = models.PositiveSmallIntegerField(default=0)

                    class Meta:
                        ordering = ["sort_order", "name"]

                    def __str__(self):
                        return self.name

                    @property
                    def price_display(self):
                        return f"£{self.price_pence / 100:.2f}"


                class Order(models.Model):
                    class Status(models.TextChoices):
                        PENDING = "pending", "Waiting for payment"
                        PAID = "paid", "Paid"
                        COLLECTED = "collected", "Collected"
                        CANCELLED = "cancelled", "Cancelled"

                    customer_name = models.CharField(max_length=100)
                    email = models.EmailField()
                    phone = models.CharField(max_length=30, blank=True)
                    pickup_at = models.DateTimeField()
                    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
                    note = models.CharField(max_length=200, blank=True)
                    created = models.DateTimeField(auto_now_add=True)

                    class Meta:
                        ordering = ["pickup_at"]

                    def __str__(self):
                        return f"{self.customer_name} – {self.pickup_at:%Y-%m-%d %H:%M}"

                    @property
                    def total_pence(self):
                        return sum(item.line_total_pence for item in self.items.all())


                class OrderItem(models.Model):
                    order = models.ForeignKey(Order, related_name="items", on_delete=models.CASCADE)
                    product = models.ForeignKey(Product, on_delete=models.PROTECT)
                    quantity = models.PositiveSmallIntegerField()
                    unit_price_pence = models.PositiveIntegerField()

                    @property
                    def line_total_pence(self):
                        return self.quantity * self.unit_price_pence
                ```

                And `orders/admin.py`, so you can see and edit all this in the admin pages:

                ```python
                from django.contrib import admin

                from .models import Order, OrderItem, Product


                @admin.register(Product)
                class ProductAdmin(admin.ModelAdmin):
                    list_display = ["name", "price_display", "active", "sort_order"]
                    list_editable = ["active", "sort_order"]


                class OrderItemInline(admin.TabularInline):
                    model = OrderItem
                    extra = 0


                @admin.register(Order)
                class OrderAdmin(admin.ModelAdmin):
                    list_display = ["customer_name", "pickup_at", "status", "created"]
                    list_filter = ["status", "pickup_at"]
                    search_fields = ["customer_name", "email", "phone"]
                    inlines = [OrderItemInline]
                ```

                Then, **in the project folder with `(.venv)` showing**:

                ```
                python manage.py makemigrations orders
                python manage.py migrate
                python manage.py createsuperuser
                python manage.py runserver
                ```

                A **migration** is a small file Django writes that says how to change the database to
                match your models; `migrate` applies it. `createsuperuser` makes your own login for the
                admin. Then open http://127.0.0.1:8000/admin/ in your browser.
                """
            ),
            key="s1-models",
        ),
        u(
            w(
                r"""
                Before I run it, why is the price "pence"? Wouldn't it be easier as 4.20?

                Also why does the order item have its own price when the product already has one?
                """
            )
        ),
        a(
            w(
                r"""
                Two good questions, and both answers save you trouble later.

                **Pence.** Computers store numbers with a decimal point in a way that's very slightly
                approximate, so 4.20 + 1.90 can come out as 6.1000000001. For money that's a nuisance:
                totals that are a penny off, or that print oddly. Keeping whole pence (420, 190) means
                adding is always exact, and we only turn it into "£4.20" when we show it. Stripe, the
                payment company, also works in pence, so it lines up neatly later.

                **The price on the order item.** That's a snapshot of what the customer paid on the day.
                If you put the sourdough up next month, you don't want last month's orders to suddenly
                show the new price, or your totals for the accountant to change after the fact. The
                product's price is "what it costs today"; the item's price is "what this person was
                charged".
                """
            )
        ),
        u(
            w(
                r"""
                Makes sense. Ran it and got this:

                ```
                (.venv) C:\Users\Ros\bakery>python manage.py makemigrations orders
                No installed app with label 'orders'.
                ```

                Tilly has just come down saying she can't sleep because of "the noise" which is the
                dishwasher. Back in a bit.
                """
            )
        ),
        a(
            w(
                r"""
                Good luck with the dishwasher negotiations.

                The error means Django doesn't know the `orders` app exists yet; `startapp` creates the
                folder but doesn't register it. Open `config/settings.py`, find the list called
                `INSTALLED_APPS`, and add `"orders",` at the end so it looks like this:

                ```python
                INSTALLED_APPS = [
                    "django.contrib.admin",
                    "django.contrib.auth",
                    "django.contrib.contenttypes",
                    "django.contrib.sessions",
                    "django.contrib.messages",
                    "django.contrib.staticfiles",
                    "orders",
                ]
                ```

                While you're in that file, scroll down and set these two, which matter for a shop in
                England:

                ```python
                LANGUAGE_CODE = "en-gb"
                TIME_ZONE = "Europe/London"
                USE_TZ = True
                ```

                `TIME_ZONE` tells Django which clock you live by, and `USE_TZ = True` means it stores
                times in a way that copes with the clocks changing in spring and autumn. Then, **in the
                project folder**, run the four commands again from `makemigrations`.
                """
            )
        ),
        u(
            "It worked!! I'm in the admin and I've added all five products. I typed 420 and it shows £4.20. "
            "I'm absurdly pleased. Bed now, Josh is in at four and so am I tomorrow."
        ),
        a(
            w(
                r"""
                That's a real first evening: a project, your products in a database, and an admin to manage
                them. Next time we'll build the page customers use to order and work out pickup times.

                If you have a minute before then, think about how pickup works in the shop now: which
                days people can collect, whether you want specific times or just "morning", and how many
                people the counter can cope with at once. Sleep well.
                """
            )
        ),
    ],
)

S2 = Session(
    "2026-01-16T21:05:00Z",
    [
        u(
            w(
                r"""
                I've thought about pickup. People can collect Wednesday to Saturday. Tuesday is when we do
                the big mixes and the shop's quiet, so no pre-orders that day. I'd like proper times rather
                than "morning", because "morning" is how we end up with eleven people in a shop that fits
                four. Half-hour slots, I think, and no more than six orders in any one slot. Some of the
                regulars want to collect first thing, on their way to the station.
                """
            ),
            key="ku-slot-old",
        ),
        a(
            w(
                r"""
                That's clear, and half-hour slots capped at six is a good way to spread people out.

                To generate the slots, the site needs your opening hours for each collection day, and a
                rule for when ordering for a given day closes, so Josh knows the numbers before he
                starts. I'd suggest a cutoff the afternoon before: orders for Thursday close on
                Wednesday afternoon, and so on.

                What time do you open on Saturdays? And what are your hours Wednesday to Friday?
                """
            )
        ),
        u("8:00. Weekdays 8 till half three, Saturdays we shut at 1.", key="ku-sat-old"),
        a(
            w(
                r"""
                Thanks. Here's how I'd set it up. The rules go in settings, where they're easy to find
                and change, and a small file works out the slots.

                At the bottom of `config/settings.py`, add:

                ```python
                from datetime import time

                # Pickup rules for the order page. Weekdays: Monday is 0, Saturday is 5.
                OPENING_HOURS = {
                    2: (time(8, 0), time(15, 30)),   # Wednesday
                    3: (time(8, 0), time(15, 30)),   # Thursday
                    4: (time(8, 0), time(15, 30)),   # Friday
                    5: (time(8, 0), time(13, 0)),    # Saturday
                }
                SLOT_MINUTES = 30
                MAX_ORDERS_PER_SLOT = 6
                ORDER_CUTOFF = time(14, 0)   # orders for a day close at this time the day before
                DAYS_AHEAD = 14              # how far ahead people can order
                ```

                Then create a new file, `orders/slots.py`:

                ```python
                from collections import Counter
                from datetime import datetime, timedelta

                from django.conf import settings
                from django.utils import timezone

                from .models import Order


                def slot_times(day):
                    # Every slot start time on `day`, or an empty list if we don't do pickups that day.
                    hours = settings.OPENING_HOURS.get(day.weekday())
                    if hours is None:
                        return []
                    opens, closes = hours
                    step = timedelta(minutes=settings.SLOT_MINUTES)
                    current = datetime.combine(day, opens)
                    last = datetime.combine(day, closes) - step
                    times = []
                    while current <= last:
                        times.append(current.time())
                        current += step
                    return times


                def taken_per_slot(day):
                    # How many live orders already sit in each slot on `day`.
                    orders = Order.objects.filter(pickup_at__date=day).exclude(status=Order.Status.CANCELLED)
                    return Counter(order.pickup_at.time() for order in orders)


                def ordering_open_for(day, now=None):
                    now = now or timezone.localtime()
                    cutoff = datetime.combine(day - timedelta(days=1), settings.ORDER_CUTOFF)
                    cutoff = timezone.make_aware(cutoff)
                    return now < cutoff


                def slots_for_day(day, now=None):
                    # The slots a customer may still choose on `day`, as aware datetimes.
                    if not ordering_open_for(day, now):
                        return []
                    taken = taken_per_slot(day)
                    free = []
                    for start in slot_times(day):
                        if taken[start] < settings.MAX_ORDERS_PER_SLOT:
                            free.append(timezone.make_aware(datetime.combine(day, start)))
                    return free


                def bookable_days(now=None):
                    now = now or timezone.localtime()
                    today = now.date()
                    days = []
                    for offset in range(1, settings.DAYS_AHEAD + 1):
                        day = today + timedelta(days=offset)
                        if slots_for_day(day, now):
                            days.append(day)
                    return days
                ```

                In plain words: `slot_times` lists every half-hour start between opening and half an
                hour before closing; `taken_per_slot` counts the orders already booked in each;
                `slots_for_day` gives only the ones with room, and nothing at all once ordering for that
                day has closed at 2pm the day before. An **aware datetime** is a date and time that
                knows which time zone it's in (so 08:00 in London, not 08:00 somewhere unspecified);
                `make_aware` attaches your `TIME_ZONE` to it.

                The last slot on a weekday is 15:00, because a 15:30 slot would end after you close.
                Saturday's last is 12:30. Does that match what you'd want?
                """
            ),
            key="code-slots",
        ),
        u(
            w(
                r"""
                Yes, that's right for the last slots.

                One thing: you wrote 2pm. Please always write times in the 24-hour clock, like 14:00,
                in everything, code comments, messages, notices. Josh misread a "4pm" on a note as
                "4am" once and came in to an empty bakehouse in the middle of the night, and we've all
                used the 24-hour clock ever since.
                """
            ),
            key="si-24h",
        ),
        a(
            "Will do: 24-hour clock everywhere from now on. So: ordering for a day closes at 14:00 the day "
            "before, weekday slots run 08:00 to 15:00, Saturday slots 08:00 to 12:30. Poor Josh."
        ),
        u(
            w(
                r"""
                Ha, he tells the story himself now. OK so how do customers actually choose? I imagine a page
                with all the breads down the side, a box for how many of each, then a day, then a time,
                then their name and phone and email, then Pay.
                """
            )
        ),
        a(
            w(
                r"""
                That's exactly the right shape. We'll build it as one page with two steps so it stays
                simple: first the customer picks the day (because what's available depends on the day),
                then the page shows the breads, the free times for that day and their details.

                A **form** in Django is a class that describes the boxes on a page and checks what people
                type into them, so you don't have to check "is this a number?" by hand. A **view** is the
                function that runs when someone visits a web address and decides what page to send back.

                `orders/forms.py` (new file):

                ```python
                from django import forms
                from django.utils import formats

                from .models import Product
                from .slots import slots_for_day


                class OrderForm(forms.Form):
                    customer_name = forms.CharField(label="Your name", max_length=100)
                    email = forms.EmailField(label="Email")
                    phone = forms.CharField(label="Phone", max_length=30, required=False)
                    pickup_at = forms.ChoiceField(label="Collection time")
                    note = forms.CharField(label="Anything we should know?", max_length=200, required=False)

                    def __init__(self, *args, day, **kwargs):
                        super().__init__(*args, **kwargs)
                        self.day = day
                        self.slots = {slot.isoformat(): slot for slot in slots_for_day(day)}
                        self.fields["pickup_at"].choices = [
                            (key, formats.time_format(slot, "H:i")) for key, slot in self.slots.items()
                        ]
                        self.products = list(Product.objects.filter(active=True))
                        for product in self.products:
                            self.fields[f"qty_{product.pk}"] = forms.IntegerField(
                                label=f"{product.name} ({product.price_display})",
                                min_value=0,
                                max_value=20,
                                initial=0,
                                required=False,
                            )

                    def clean(self):
                        cleaned = super().clean()
                        lines = []
                        for product in self.products:
                            qty = cleaned.get(f"qty_{product.pk}") or 0
                            if qty:
                                lines.append((product, qty))
                        if not lines:
                            raise forms.ValidationError("Please choose at least one thing.")
                        cleaned["lines"] = lines
                        cleaned["pickup_slot"] = self.slots.get(cleaned.get("pickup_at"))
                        return cleaned
                ```

                `orders/views.py`:

                ```python
                from datetime import date

                from django.shortcuts import redirect, render

                from .forms import OrderForm
                from .models import Order, OrderItem
                from .slots import bookable_days


                def choose_day(request):
                    return render(request, "orders/choose_day.html", {"days": bookable_days()})


                def order_form(request, day):
                    day = date.fromisoformat(day)
                    if day not in bookable_days():
                        return redirect("choose_day")
                    form = OrderForm(request.POST or None, day=day)
                    if request.method == "POST" and form.is_valid():
                        data = form.cleaned_data
                        order = Order.objects.create(
                            customer_name=data["customer_name"],
                            email=data["email"],
                            phone=data["phone"],
                            pickup_at=data["pickup_slot"],
                            note=data["note"],
                        )
                        for product, qty in data["lines"]:
                            OrderItem.objects.create(
                                order=order, product=product, quantity=qty, unit_price_pence=product.price_pence
                            )
                        return redirect("order_summary", order_id=order.pk)
                    return render(request, "orders/order_form.html", {"form": form, "day": day})


                def order_summary(request, order_id):
                    order = Order.objects.get(pk=order_id)
                    return render(request, "orders/summary.html", {"order": order})
                ```

                `orders/urls.py` (new):

                ```python
                from django.urls import path

                from . import views

                urlpatterns = [
                    path("", views.choose_day, name="choose_day"),
                    path("order/<str:day>/", views.order_form, name="order_form"),
                    path("order/summary/<int:order_id>/", views.order_summary, name="order_summary"),
                ]
                ```

                And in `config/urls.py`, add `include` to the import and one line to the list:

                ```python
                from django.contrib import admin
                from django.urls import include, path

                urlpatterns = [
                    path("admin/", admin.site.urls),
                    path("", include("orders.urls")),
                ]
                ```

                The templates (the HTML pages) go in `orders/templates/orders/`. Here is
                `order_form.html`; the other two are short and I'll give them once this one works:

                ```html
                <!doctype html>
                <html lang="en-GB">
                <head><meta charset="utf-8"><title>Order – Wren Street Bakery</title></head>
                <body>
                  <h1>Order for {{ day|date:"l j F" }}</h1>
                  <form method="post">
                    {% csrf_token %}
                    {{ form.as_p }}
                    <button type="submit">Continue to payment</button>
                  </form>
                </body>
                </html>
                ```

                The `{% csrf_token %}` line is a hidden code that stops other websites from submitting
                the form on someone's behalf; Django insists on it for any form that changes things.
                """
            )
        ),
        u(
            w(
                r"""
                Did all that, made choose_day.html and summary.html myself by copying yours and changing
                bits (proud). Got this though:

                ```
                TemplateDoesNotExist at /order/2026-01-21/
                orders/order_form.html
                Template-loader postmortem
                django.template.loaders.app_directories.Loader: C:\Users\Ros\bakery\orders\templates\order_form.html
                (Source does not exist)
                ```
                """
            )
        ),
        a(
            w(
                r"""
                You're one folder short, and the error tells us: Django looked for
                `orders\templates\order_form.html`, but the view asks for `orders/order_form.html`,
                which means it expects the file at `orders\templates\orders\order_form.html`. The doubled
                `orders` looks silly but it's deliberate: it keeps your templates from clashing with
                another app's templates of the same name.

                **In the project folder**, run:

                ```
                mkdir orders\templates\orders
                move orders\templates\*.html orders\templates\orders\
                ```

                Then reload the page; no need to restart the server.
                """
            )
        ),
        u(
            w(
                r"""
                It works! I ordered two ryes for myself for Wednesday at 09:30. Two things: on the day
                page it's offering tomorrow even though it's after 14:00 today, and the boxes for
                quantities are huge and ugly. Also Tilly has named the website "Breadbook" and is very
                offended that it's actually called Wren Street Bakery.
                """
            )
        ),
        a(
            w(
                r"""
                Breadbook is honestly not bad. Maybe the name of the staff pages later, to keep her on
                side.

                **Tomorrow still showing.** Before I change any code, let's make sure it really is a
                bug, because the rule is easy to misread from the outside. Can you tell me the time it
                says at the bottom right of your screen, and which date the page offers first?
                If it's, say, 21:10 on Friday the 16th and it offers Saturday the 17th, that's a bug; if
                it's offering Wednesday the 21st as the first day, it's correct, because Saturday's
                ordering closed at 14:00 today and there are no pickups Sunday to Tuesday.

                **The boxes.** Add a little CSS (the language that says how a page looks) inside the
                `<head>` of `order_form.html`:

                ```html
                <style>
                  body { font-family: Georgia, serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem; }
                  input[type=number] { width: 4rem; }
                  input[type=text], input[type=email], select { width: 100%; padding: .4rem; }
                  button { font-size: 1.1rem; padding: .6rem 1.2rem; }
                </style>
                ```
                """
            )
        ),
        u(
            "21:12 on Friday, and the first day it offers is Wednesday the 21st. So I was confusing myself. "
            "Ignore me. The boxes are much better."
        ),
        a(
            w(
                r"""
                Not ignoring you: checking the first date offered is exactly the right reflex, and it
                behaved correctly. Saturday closed at 14:00 today, and Sunday to Tuesday have no pickups.

                Next time: payment. Before then, if you haven't already, sign up for a Stripe account at
                stripe.com with the bakery's details. It starts in **test mode**, a practice mode with
                pretend cards where no real money moves, so we can build the whole thing without
                charging anyone.
                """
            )
        ),
    ],
)

S3 = Session(
    "2026-01-21T20:15:00Z",
    [
        u(
            w(
                r"""
                Stripe account made, it's in test mode, I've got keys that start with pk_test and sk_test.

                But first a correction, I got something wrong last time: the slots are 15 minutes, not 30.
                I was thinking of how long people hang about chatting, not how often they arrive. Priya
                says a prepaid pickup takes her twenty seconds if the bag's ready with the name on, so
                keep six per slot, just make them quarter-hours.
                """
            ),
            key="ku-slot-new",
        ),
        a(
            w(
                r"""
                Easy change, and it's a nice demonstration of why those rules live in settings. In
                `config/settings.py`:

                ```python
                SLOT_MINUTES = 15
                MAX_ORDERS_PER_SLOT = 6
                ```

                Nothing else needs touching: weekdays now offer 08:00, 08:15 … 15:15, and Saturdays
                08:00 … 12:45. Any test orders you've placed at :30 still fit, since :30 is also a
                quarter-hour.

                **Stripe, in outline.** When the customer presses "Continue to payment", our site asks
                Stripe to create a **Checkout Session**, which is Stripe's word for "a payment page for
                this particular basket". Stripe gives back a web address; we send the customer there;
                they pay on Stripe's page (so card numbers never touch your site); Stripe sends them back
                to a "thank you" page on your site.

                On cost: for standard UK cards Stripe currently charges 1.5% + 20p per successful
                payment, with no monthly fee. On a typical £12 order that's 38p. It's worth checking their
                pricing page when you go live, as they do change it.

                Install the library, **in the project folder with `(.venv)` on**:

                ```
                pip install stripe
                ```

                Don't put your keys in the code. We'll read them from **environment variables**,
                which are named values the computer hands to a program when it starts, so secrets stay
                out of the files you might share. Add to `settings.py`:

                ```python
                import os

                STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY", "")
                STRIPE_PUBLISHABLE_KEY = os.environ.get("STRIPE_PUBLISHABLE_KEY", "")
                STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET", "")
                SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
                ```

                Add a field to `Order` in `models.py` so we can match Stripe's payment to our order:

                ```python
                    stripe_session_id = models.CharField(max_length=255, blank=True)
                ```

                And a new view in `views.py`:

                ```python
                import stripe
                from django.conf import settings
                from django.shortcuts import get_object_or_404, redirect


                def start_checkout(request, order_id):
                    order = get_object_or_404(Order, pk=order_id, status=Order.Status.PENDING)
                    stripe.api_key = settings.STRIPE_SECRET_KEY
                    session = stripe.checkout.Session.create(
                        mode="payment",
                        customer_email=order.email,
                        line_items=[
                            {
                                "quantity": item.quantity,
                                "price_data": {
                                    "currency": "gbp",
                                    "unit_amount": item.unit_price_pence,
                                    "product_data": {"name": item.product.name},
                                },
                            }
                            for item in order.items.select_related("product")
                        ],
                        metadata={"order_id": str(order.pk)},
                        success_url=f"{settings.SITE_URL}/order/thanks/{order.pk}/",
                        cancel_url=f"{settings.SITE_URL}/order/summary/{order.pk}/",
                    )
                    order.stripe_session_id = session.id
                    order.save(update_fields=["stripe_session_id"])
                    return redirect(session.url, permanent=False)
                ```

                Put a "Pay now" button on `summary.html` that posts to this view, add
                `path("order/pay/<int:order_id>/", views.start_checkout, name="start_checkout")` to
                `orders/urls.py`, and run `makemigrations` and `migrate` for the new field.

                One thing this does *not* do yet is mark the order as paid. The "thank you" page alone
                can't be trusted for that (someone could just type its address), so for that we need a
                webhook.
                """
            ),
            key="sf-stripe-fee",
        ),
        u("Go on then. What's a webhook? The Stripe docs say it every other line."),
        a(
            w(
                r"""
                A **webhook** is Stripe phoning your site to tell it something happened, instead of your
                site having to keep asking. When a payment succeeds, Stripe sends a short message to an
                address on your site; your site checks the message really came from Stripe, then marks
                the order paid. It's the only trustworthy "they paid" signal.

                The check uses a **signing secret**: Stripe signs each message with a secret only it and
                you know, and your code refuses anything whose signature doesn't match. The code reads
                that secret from the `STRIPE_WEBHOOK_SECRET` environment variable we added to settings a
                moment ago.

                Add this to `orders/views.py`:

                ```python
                from django.http import HttpResponse
                from django.views.decorators.csrf import csrf_exempt
                from django.views.decorators.http import require_POST


                @csrf_exempt
                @require_POST
                def stripe_webhook(request):
                    payload = request.body
                    signature = request.headers.get("Stripe-Signature", "")
                    try:
                        event = stripe.Webhook.construct_event(payload, signature, settings.STRIPE_WEBHOOK_SECRET)
                    except (ValueError, stripe.error.SignatureVerificationError):
                        return HttpResponse(status=400)

                    if event["type"] == "checkout.session.completed":
                        session = event["data"]["object"]
                        order_id = session["metadata"].get("order_id")
                        Order.objects.filter(pk=order_id, status=Order.Status.PENDING).update(
                            status=Order.Status.PAID
                        )
                    return HttpResponse(status=200)


                def order_thanks(request, order_id):
                    order = get_object_or_404(Order, pk=order_id)
                    return render(request, "orders/thanks.html", {"order": order})
                ```

                `csrf_exempt` switches off the form protection from last time for this one address,
                because Stripe can't know your hidden code; the signature check does that job instead.

                In `orders/urls.py`:

                ```python
                    path("stripe/webhook/", views.stripe_webhook, name="stripe_webhook"),
                    path("order/thanks/<int:order_id>/", views.order_thanks, name="order_thanks"),
                ```

                To test on your laptop, Stripe can't reach `127.0.0.1` (that address means "this
                computer" and only works from your own laptop), so we use the Stripe CLI, a small
                program that forwards Stripe's messages to you. Download it from Stripe's docs ("Stripe
                CLI", Windows zip), unzip `stripe.exe` into your project folder, then **in the project
                folder**, in a *second* command window:

                ```
                stripe login
                stripe listen --forward-to 127.0.0.1:8000/stripe/webhook/
                ```

                It prints a line like `Your webhook signing secret is whsec_...`. In your *first*
                window, **in the project folder with `(.venv)` on**, set the variables and start the
                server:

                ```
                set STRIPE_SECRET_KEY=sk_test_...
                set STRIPE_PUBLISHABLE_KEY=pk_test_...
                set STRIPE_WEBHOOK_SECRET=whsec_...
                python manage.py runserver
                ```

                Then place an order and pay with Stripe's test card 4242 4242 4242 4242, any future
                expiry date, any three digits.
                """
            ),
            key="code-webhook",
        ),
        u(
            w(
                r"""
                The payment page came up (very exciting, it says Wren Street Bakery at the top!) but the
                order's still "Waiting for payment" and the stripe window says:

                ```
                2026-01-21 21:02:44   --> checkout.session.completed [evt_1Qx...]
                2026-01-21 21:02:44  <--  [400] POST http://127.0.0.1:8000/stripe/webhook/
                ```
                """
            )
        ),
        a(
            w(
                r"""
                A 400 there means our view rejected the message, almost certainly at the signature
                check. The usual reasons, most likely first:

                1. **The `whsec_` value doesn't match.** The secret from `stripe listen` is different
                   from any secret shown on the Stripe dashboard, and it can change each time you run
                   `stripe listen`. Copy it again from the second window.
                2. **The variable was set in a different window.** `set` only applies to the window you
                   typed it in. It has to be the same window you run `runserver` in, and you need to
                   restart `runserver` after setting it.
                3. **A stray space or quote** pasted along with the value.

                To see which, stop the server (Ctrl+C) and, **in the project folder, in the server
                window**, type:

                ```
                echo %STRIPE_WEBHOOK_SECRET%
                ```

                If it prints the literal text `%STRIPE_WEBHOOK_SECRET%`, it isn't set in this window.
                If it prints a `whsec_` value, compare it with the one in the other window character by
                character. Then `set` it again and restart the server, and in the Stripe window you can
                replay the last event with `stripe events resend evt_...` using the id it printed.
                """
            )
        ),
        u(
            w(
                r"""
                Number 2. I'd set them in the stripe window. Now it says [200] and the order says Paid!!!
                I ran round the kitchen. Marek asked if I'd won something. He still thinks this whole
                thing is me avoiding the VAT return, which, fine, a bit.
                """
            )
        ),
        a(
            w(
                r"""
                That [200] is the moment the whole thing becomes real: a customer can now choose bread,
                pick a time, pay, and the order is marked paid by Stripe itself. Congratulations, and
                tell Marek the VAT return will still be there tomorrow.

                Sensible next piece: a confirmation email, so customers have their collection time in
                writing and you get fewer "what time did I say?" calls. Sending email from a website
                needs an outside service to actually deliver it (if your site sends mail directly it
                mostly lands in spam).
                """
            )
        ),
        u(
            w(
                r"""
                Before you suggest one: I hate monthly subscriptions. Every single thing for a small
                business wants £8 a month, the till app, the rota app, the accounting thing, and it adds
                up to a frightening amount. If there's a free option or something I pay for once, I'd
                rather that, even if it's a bit more fiddly.
                """
            ),
            key="pref-subs",
        ),
        a(
            w(
                r"""
                Understood, and for email you can genuinely stay free at your size. The options:

                | Service | Free allowance | Catch |
                |---|---|---|
                | Brevo | 300 emails a day, forever | small "sent with Brevo" footer on the free plan |
                | Mailjet | 200 a day, 6,000 a month | footer too; stricter sign-up checks |
                | Your host's mail | depends on host | often blocked or limited on cheap plans |
                | Gmail account | ~500 a day | fine for tiny volumes but against the spirit of their terms for a
                shop, and fragile |

                At, say, 40 orders on a busy day you'd use a fraction of Brevo's 300, so I'd go with
                Brevo. You'd connect to it by **SMTP**, which is simply the standard way one program
                hands an email to a mail server to deliver; Django speaks it already, so there's no
                extra library.

                You'll need to verify the address you send from (something like
                `orders@` your domain once you have one; for now your own email is fine) and create an
                SMTP key in Brevo's settings.
                """
            )
        ),
        u("Brevo it is. Signed up, verified my email, I have an SMTP key that's about a mile long."),
        a(
            w(
                r"""
                Good. In `settings.py`:

                ```python
                EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
                EMAIL_HOST = "smtp-relay.brevo.com"
                EMAIL_PORT = 587
                EMAIL_USE_TLS = True
                EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
                EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
                DEFAULT_FROM_EMAIL = "Wren Street Bakery <hello@wrenstreetbakery.co.uk>"
                ```

                A new file, `orders/emails.py`:

                ```python
                from django.core.mail import send_mail
                from django.template.loader import render_to_string


                def send_confirmation(order):
                    body = render_to_string("orders/email_confirmation.txt", {"order": order})
                    send_mail(
                        subject=f"Your order for {order.pickup_at:%A %d %B}",
                        message=body,
                        from_email=None,
                        recipient_list=[order.email],
                    )
                ```

                The email text, `orders/templates/orders/email_confirmation.txt`:

                ```
                Hello {{ order.customer_name }},

                Thank you, your order is paid and we'll have it ready.

                Collect: {{ order.pickup_at|date:"l j F" }} at {{ order.pickup_at|date:"H:i" }}
                Where: Wren Street Bakery, 14 Wren Street, Frome

                {% for item in order.items.all %}{{ item.quantity }} x {{ item.product.name }}
                {% endfor %}
                Total paid: £{{ order.total_display }}

                If you can't make it, reply to this email or ring us on 01373 000000.

                Wren Street Bakery
                ```

                Add a `total_display` property to `Order` next to `total_pence`:

                ```python
                    @property
                    def total_display(self):
                        return f"{self.total_pence / 100:.2f}"
                ```

                And in the webhook, send the email only when the order actually changes to paid, so a
                repeated message from Stripe doesn't email twice:

                ```python
                    if event["type"] == "checkout.session.completed":
                        session = event["data"]["object"]
                        order_id = session["metadata"].get("order_id")
                        changed = Order.objects.filter(pk=order_id, status=Order.Status.PENDING).update(
                            status=Order.Status.PAID
                        )
                        if changed:
                            send_confirmation(Order.objects.get(pk=order_id))
                ```

                (with `from .emails import send_confirmation` at the top). Set `EMAIL_HOST_USER` (your
                Brevo login) and `EMAIL_HOST_PASSWORD` (the long key) in the server window the same way
                as the Stripe ones. I've put your shop address and a placeholder phone number in the
                text; change them to the real ones.
                """
            )
        ),
        u(
            "Got it in my inbox, with my two ryes on it. Signing off now, Tilly has a spelling test tomorrow "
            "and I'm the tester. 'Necessary' is the nemesis."
        ),
        a("One collar, two sleeves: one c, two s's. Good luck to her, and well done tonight."),
    ],
)

S4 = Session(
    "2026-01-27T20:50:00Z",
    [
        u(
            w(
                r"""
                Everything works on my laptop. Orders, Stripe (test), the email. I'd like to put it online
                and tell the regulars this Saturday, the 31st. What do I need, and what's it going to
                cost me? You know how I feel about monthly bills, but I accept the website has to live
                somewhere.
                """
            )
        ),
        a(
            w(
                r"""
                Realistic plan for Saturday. You need two things:

                1. **A domain**: the name people type, like `wrenstreetbakery.co.uk`. You rent it yearly
                   from a **registrar**, a company licensed to sell domain names.
                2. **Hosting**: a computer on the internet that runs your Django site all the time.

                For hosting, the choice is between a service that manages the computer for you and a
                bare rented server you look after yourself:

                | Option | Cost | What you look after | Fit for you |
                |---|---|---|---|
                | PythonAnywhere "Hacker" | $5/month | just your code | very good: made for Django, web-based
                console, scheduled tasks included |
                | Render / Railway | from ~$7/month plus database | code, a bit of config | fine, but more
                moving parts |
                | A small VPS (e.g. Hetzner) | ~€4–5/month | everything: updates, security, web server |
                cheapest, but you become a part-time system administrator |
                | Free tiers | £0 | — | sites go to sleep or get deleted; not for taking money |

                A **VPS** (virtual private server) is a slice of a big computer in a data centre that
                behaves like your own machine; cheap, but nobody looks after it but you.

                My recommendation is PythonAnywhere: it's the closest to what you've done on your laptop,
                the free database that Django already uses (a single file called `db.sqlite3`) works
                there fine at your size, and there's a button-based page for scheduled jobs, which we'll
                want for Josh's daily list. You can pay yearly rather than monthly if it helps the
                feeling.
                """
            )
        ),
        u(
            w(
                r"""
                PythonAnywhere then, the Hacker plan, $5 a month. I've also just bought
                wrenstreetbakery.co.uk through 123-reg, £11.99 a year.

                Could you give me the steps as a numbered list? I print these things out and tick them
                off with a pencil as I go. If I lose my place I can see exactly where I was, which with a
                nine-year-old coming in to ask about slime every ten minutes is important.
                """
            ),
            key="ku-host-old",
        ),
        u(
            "Oh and I put 'pencil' as if that's unusual, I do everything like this. Stock check, cleaning "
            "rota. Numbered, printed, ticked.",
            key="pref-steps",
        ),
        a(
            w(
                r"""
                Numbered it is. These are in the order you'll do them; the folder is given for every
                command.

                We'll move the code with **git**, a program that keeps versions of your files, and
                **GitHub**, a website that stores a copy; PythonAnywhere then fetches it from there.
                Install git from git-scm.com first (all the default options are fine) and make a free
                GitHub account.

                **On your laptop**

                1. **In the project folder**, make a file called `requirements.txt` listing the
                   packages, so the server can install the same ones:
                   ```
                   pip freeze > requirements.txt
                   ```
                2. Make a file called `.gitignore` in the project folder containing these three lines,
                   so your database and private box of packages aren't uploaded:
                   ```
                   .venv/
                   db.sqlite3
                   __pycache__/
                   ```
                3. On GitHub, create a new **private** repository called `bakery`. Don't tick any of
                   the "add a README" boxes.
                4. **In the project folder**:
                   ```
                   git init
                   git add .
                   git commit -m "First version of the order site"
                   git branch -M main
                   git remote add origin https://github.com/YOURNAME/bakery.git
                   git push -u origin main
                   ```

                **On PythonAnywhere** (open a "Bash console" from the Consoles tab; it starts in your
                home folder, `/home/wrenstreet`, assuming that's your username)

                5. **In your home folder**:
                   ```
                   git clone https://github.com/YOURNAME/bakery.git
                   cd bakery
                   python3.11 -m venv .venv
                   source .venv/bin/activate
                   pip install -r requirements.txt
                   python manage.py migrate
                   python manage.py createsuperuser
                   ```
                6. Web tab → "Add a new web app" → your domain `www.wrenstreetbakery.co.uk` → "Manual
                   configuration" → Python 3.11.
                7. On the Web tab, set **Virtualenv** to `/home/wrenstreet/bakery/.venv`.
                8. Click the **WSGI configuration file** link and replace its contents with:
                   ```python
                   import os
                   import sys

                   path = "/home/wrenstreet/bakery"
                   if path not in sys.path:
                       sys.path.insert(0, path)

                   os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

                   from django.core.wsgi import get_wsgi_application

                   application = get_wsgi_application()
                   ```
                   (**WSGI** is the standard plug between a web server and a Python website; this file
                   tells PythonAnywhere where your site's plug is.)
                9. Still on the Web tab, add your environment variables. PythonAnywhere wants them in a
                   file: in the Bash console, **in `/home/wrenstreet/bakery`**, create `.env` with your
                   Stripe, Brevo and secret values, one `NAME=value` per line; I'll give you two lines to
                   load it in a moment once we see it running.
                10. Click the green **Reload** button.

                **At 123-reg**

                11. In the DNS settings for the domain, add a **CNAME** record for `www` pointing at the
                    address PythonAnywhere shows on the Web tab (something like
                    `webapp-123456.pythonanywhere.com`). DNS is the internet's phone book; a CNAME entry
                    says "www.wrenstreetbakery.co.uk lives at this other name".
                12. Wait. It can take from a few minutes to a few hours.

                Expect one or two errors on the first visit; everyone gets them. Paste what you see.
                """
            )
        ),
        u(
            w(
                r"""
                Ticked to 12, waited an hour (ate a biscuit) and got this:

                ```
                DisallowedHost at /
                Invalid HTTP_HOST header: 'www.wrenstreetbakery.co.uk'. You may need to add
                'www.wrenstreetbakery.co.uk' to ALLOWED_HOSTS.
                ```
                """
            )
        ),
        a(
            w(
                r"""
                Good error to get: it means the domain, the server and Django are all connected, and
                Django is just being cautious. `ALLOWED_HOSTS` is the list of web addresses your site
                agrees to answer to, which stops some tricks where someone points a different name at
                your server.

                In `config/settings.py`, replace the `ALLOWED_HOSTS = []` line with:

                ```python
                ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
                ```

                and add to your `.env` on PythonAnywhere:

                ```
                ALLOWED_HOSTS=www.wrenstreetbakery.co.uk,wrenstreet.pythonanywhere.com
                ```

                Then load the `.env` file in the WSGI file, just above `from django.core.wsgi import
                get_wsgi_application`:

                ```python
                from dotenv import load_dotenv

                load_dotenv("/home/wrenstreet/bakery/.env")
                ```

                which needs one package: **in `/home/wrenstreet/bakery` with the `.venv` on**, run
                `pip install python-dotenv`. Also add `python-dotenv` to `requirements.txt` on your
                laptop so the two stay in step. Push your `settings.py` change from the laptop (`git
                add`, `git commit`, `git push`, **in the project folder**), then on PythonAnywhere **in
                `/home/wrenstreet/bakery`** run `git pull`, and press Reload.
                """
            )
        ),
        u(
            "The order page loads! But the admin looks like a page from 1996, no styling at all, and my "
            "own little CSS is fine because it's inside the page."
        ),
        a(
            w(
                r"""
                That's **static files**: the fixed CSS, pictures and scripts that don't change per
                visitor. On your laptop `runserver` hands them out for you; on a real server you collect
                them into one folder and tell the web server where it is.

                1. In `settings.py`, under `STATIC_URL`, add:
                   ```python
                   STATIC_ROOT = BASE_DIR / "staticfiles"
                   ```
                2. Add `staticfiles/` to `.gitignore`, commit and push (**in the project folder**).
                3. On PythonAnywhere, **in `/home/wrenstreet/bakery` with `.venv` on**:
                   ```
                   git pull
                   python manage.py collectstatic
                   ```
                   Type `yes` when it asks.
                4. Web tab → **Static files** → URL `/static/`, Directory
                   `/home/wrenstreet/bakery/staticfiles`.
                5. Reload.

                Any time you add or change a static file in future, repeat step 3 and reload.
                """
            )
        ),
        u(
            w(
                r"""
                Styled! It's live at www.wrenstreetbakery.co.uk. I placed an order from my phone in the
                kitchen with the test card.

                My friend Caz who does websites for estate agents says I need to "turn DEBUG off" before
                real people use it. What else is on that sort of list?
                """
            )
        ),
        a(
            w(
                r"""
                Caz is right. **DEBUG** is a switch that makes Django show detailed error pages: great
                on your laptop, but on the live site it would show strangers bits of your code and
                settings whenever something breaks. The checklist before real money:

                1. **DEBUG off.** In `settings.py`:
                   ```python
                   DEBUG = os.environ.get("DJANGO_DEBUG") == "1"
                   ```
                   On the laptop, `set DJANGO_DEBUG=1` in the server window; on PythonAnywhere, don't
                   set it at all.
                2. **Secret key out of the code.** `SECRET_KEY` is what Django uses to sign logins; the
                   one in your file is now on GitHub (privately, but still). Replace it with:
                   ```python
                   SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
                   ```
                   and put a fresh long random value in `.env` on the server, and another one in your
                   laptop's window.
                3. **HTTPS only.** PythonAnywhere gives you a free certificate: Web tab → Security →
                   "Auto-renewed Let's Encrypt certificate", then tick **Force HTTPS**. Add to settings:
                   ```python
                   CSRF_TRUSTED_ORIGINS = ["https://www.wrenstreetbakery.co.uk"]
                   SESSION_COOKIE_SECURE = not DEBUG
                   CSRF_COOKIE_SECURE = not DEBUG
                   ```
                4. **Stripe live mode.** In Stripe, finish the account activation (bank details, ID),
                   switch to live keys in `.env`, and in Developers → Webhooks add an endpoint
                   `https://www.wrenstreetbakery.co.uk/stripe/webhook/` listening for
                   `checkout.session.completed`. It gives a new `whsec_` secret for the live site; that
                   goes in `.env` as `STRIPE_WEBHOOK_SECRET`.
                5. **SITE_URL** in `.env`: `https://www.wrenstreetbakery.co.uk`.
                6. **A backup.** Your whole shop's orders are in `db.sqlite3`. PythonAnywhere's Files tab
                   lets you download it; do that weekly for now and we'll automate it later.

                After 1–5: `git pull`, `collectstatic` if anything static changed, Reload, and one real
                order with your own card for £1.90 to prove it end to end. You can refund yourself from
                the Stripe dashboard afterwards.
                """
            )
        ),
        u(
            w(
                r"""
                All done and a real baguette bought with my real card. Stripe took 23p of my £1.90,
                which hurts on principle.

                Last thing tonight: can you write me the words for a little card to put by the till and
                in bags on Saturday? Telling people they can now order ahead. Keep it short, we're not a
                law firm.
                """
            )
        ),
        a(
            w(
                r"""
                Here you go: short, and no flourishes.

                ```
                ORDER AHEAD

                Pick your bread, pick a time, pay online,
                and it'll be waiting for you with your name on.

                www.wrenstreetbakery.co.uk

                Collect Wednesday to Friday 08:00–15:15, Saturday 08:00–12:45.
                Order by 14:00 the day before.

                Still happy to see you at the counter, too.
                Wren Street Bakery · 14 Wren Street, Frome
                ```

                The 23p is Stripe's 1.5% + 20p on a small sale; on a £14 basket it's 41p, about 3%.
                Worth keeping in mind if you ever think about a minimum order.
                """
            )
        ),
        u("Lovely. Bea is going to hand them out and has already asked if she gets commission."),
        a("Tell her she's on a strict 0% plus a cinnamon bun. Good luck on Saturday, I hope it's busy."),
    ],
)

S5 = Session(
    "2026-02-03T21:10:00Z",
    [
        u(
            w(
                r"""
                Launch report! Saturday: 23 orders online, all paid, all collected. Nobody didn't turn up,
                because of course they'd paid. Bea handed out every card. One lady rang to say she
                couldn't work out the website, and it turned out she was trying to order for Sunday.

                Now the bit Josh actually cares about. He wants a list every afternoon of what to bake for
                the next day: how many of each loaf, and then who's collecting what so he can bag up.
                We work off paper, pinned on the board next to the oven. A4, big print he can read from
                across the bench with flour on his glasses, and nothing that needs colour, our printer
                only does black and white and the colour cartridge has been empty since 2023.
                """
            ),
            key="pref-print",
        ),
        a(
            w(
                r"""
                23 paid orders and no no-shows on the first day is a lovely start.

                We'll make the report in one place and use it in two ways: emailed each afternoon when
                ordering for the next day closes, and as a page you can print from the admin. First the
                part that does the counting, a new file `orders/reports.py`:

                ```python
                from collections import defaultdict
                from dataclasses import dataclass, field

                from django.db.models import Sum
                from django.utils import timezone

                from .models import Order, OrderItem


                @dataclass
                class ProductionReport:
                    day: object
                    totals: list = field(default_factory=list)      # (product name, quantity)
                    pickups: list = field(default_factory=list)     # (time, customer, [(qty, product)])
                    order_count: int = 0


                def build_production_report(day):
                    items = OrderItem.objects.filter(order__pickup_at__date=day).exclude(
                        order__status=Order.Status.CANCELLED
                    )
                    totals = (
                        items.values("product__name", "product__sort_order")
                        .annotate(quantity=Sum("quantity"))
                        .order_by("product__sort_order", "product__name")
                    )
                    report = ProductionReport(day=day)
                    report.totals = [(row["product__name"], row["quantity"]) for row in totals]

                    lines = defaultdict(list)
                    orders = Order.objects.filter(pickup_at__date=day).exclude(status=Order.Status.CANCELLED)
                    for order in orders.prefetch_related("items__product"):
                        lines[order.pk] = [(item.quantity, item.product.name) for item in order.items.all()]
                        when = timezone.localtime(order.pickup_at).strftime("%H:%M")
                        report.pickups.append((when, order.customer_name, lines[order.pk]))
                    report.order_count = len(report.pickups)
                    return report


                def report_as_text(report):
                    out = [f"BAKE LIST FOR {report.day:%A %d %B %Y}".upper(), ""]
                    for name, qty in report.totals:
                        out.append(f"{qty:>4}  {name}")
                    out += ["", f"PICKUPS ({report.order_count} orders)", ""]
                    for when, customer, lines in report.pickups:
                        items = ", ".join(f"{qty} x {name}" for qty, name in lines)
                        out.append(f"{when}  {customer}: {items}")
                    return "\n".join(out)
                ```

                Then a **management command**: a small script you run through `manage.py`, the same way
                as `migrate`, which is what we'll schedule to run every day. Django finds them by
                folder, so create `orders/management/__init__.py` and
                `orders/management/commands/__init__.py` (both empty), and
                `orders/management/commands/send_production_report.py`:

                ```python
                from datetime import date, timedelta

                from django.conf import settings
                from django.core.mail import send_mail
                from django.core.management.base import BaseCommand
                from django.utils import timezone

                from orders.reports import build_production_report, report_as_text


                class Command(BaseCommand):
                    help = "Email the bake list for a day (tomorrow by default) to the bakehouse."

                    def add_arguments(self, parser):
                        parser.add_argument("--day", help="YYYY-MM-DD; defaults to tomorrow")
                        parser.add_argument("--print-only", action="store_true", help="show it here, send nothing")

                    def handle(self, *args, **options):
                        if options["day"]:
                            day = date.fromisoformat(options["day"])
                        else:
                            day = timezone.localdate() + timedelta(days=1)
                        report = build_production_report(day)
                        text = report_as_text(report)
                        if options["print_only"]:
                            self.stdout.write(text)
                            return
                        send_mail(
                            subject=f"Bake list {day:%a %d %b}: {report.order_count} orders",
                            message=text,
                            from_email=None,
                            recipient_list=settings.REPORT_RECIPIENTS,
                        )
                        self.stdout.write(f"Sent bake list for {day} to {len(settings.REPORT_RECIPIENTS)} people")
                ```

                And in `settings.py`, who gets it:

                ```python
                REPORT_RECIPIENTS = ["ros@wrenstreetbakery.co.uk", "josh@wrenstreetbakery.co.uk"]
                ```

                Try it without sending anything, **in the project folder with `(.venv)` on**:

                ```
                python manage.py send_production_report --day 2026-01-31 --print-only
                ```

                That should show last Saturday's 23 orders if you copy the live database down, or your
                test orders on the laptop.
                """
            ),
            key="code-report",
        ),
        u(
            w(
                r"""
                It printed Saturday's test orders on my laptop! How do I make it run every day on its own?
                I don't want to be remembering to type it at 14:00 in the middle of the lunch rush.
                """
            )
        ),
        a(
            w(
                r"""
                PythonAnywhere has exactly this: Tasks tab → "Scheduled tasks". A **scheduled task** is a
                command the server runs for you at a set time every day.

                1. Push the new files from the laptop (**in the project folder**: `git add .`,
                   `git commit -m "Daily bake list"`, `git push`).
                2. On PythonAnywhere, **in `/home/wrenstreet/bakery`**: `git pull`, then Reload on the
                   Web tab.
                3. Nothing to add to `.env`: `REPORT_RECIPIENTS` isn't secret, so it lives in settings.
                4. Tasks tab → Daily task at **14:05** with this command (it has the folder built in, so
                   it doesn't matter where the task starts):
                   ```
                   cd /home/wrenstreet/bakery && .venv/bin/python manage.py send_production_report
                   ```
                5. Test it once from a Bash console, **in `/home/wrenstreet/bakery` with `.venv` on**,
                   with a real send: `python manage.py send_production_report`.

                Five minutes after the cutoff gives any payment that was half-way through at 14:00 time to
                land.

                One thing to diary now: PythonAnywhere's task times are in **UTC**, the world's
                reference clock, which is the same as UK time only in winter. When the clocks go forward
                on 29 March, a task set for 14:05 UTC will run at 15:05 your time. We'll change it to
                13:05 then, or I'll remind you if we're talking around that time.
                """
            )
        ),
        u(
            w(
                r"""
                Task set, and I got a test email. Josh says the email is fine but he wants the proper
                sheet to pin up, the email prints in tiny letters with the header junk at the top.
                """
            )
        ),
        a(
            w(
                r"""
                Let's give him a page made for the printer: one A4 sheet, big type, black on white, and
                a thick line between sections so it reads from across the bench. Only logged-in staff can
                see it.

                In `orders/views.py`:

                ```python
                from django.contrib.admin.views.decorators import staff_member_required

                from .reports import build_production_report


                @staff_member_required
                def production_sheet(request, day):
                    report = build_production_report(date.fromisoformat(day))
                    return render(request, "orders/production_sheet.html", {"report": report})
                ```

                In `orders/urls.py`:

                ```python
                    path("staff/report/<str:day>/", views.production_sheet, name="production_sheet"),
                ```

                And `orders/templates/orders/production_sheet.html`:

                ```html
                <!doctype html>
                <html lang="en-GB">
                <head>
                  <meta charset="utf-8">
                  <title>Bake list {{ report.day|date:"Y-m-d" }}</title>
                  <style>
                    @page { size: A4; margin: 12mm; }
                    body { font-family: Arial, sans-serif; font-size: 16pt; color: #000; background: #fff; }
                    h1 { font-size: 24pt; margin: 0 0 6mm; }
                    h2 { font-size: 18pt; border-bottom: 3px solid #000; padding-bottom: 2mm; }
                    table { width: 100%; border-collapse: collapse; }
                    td { padding: 2mm 0; border-bottom: 1px solid #000; vertical-align: top; }
                    td.qty { width: 20mm; font-size: 22pt; font-weight: bold; }
                    td.time { width: 25mm; font-weight: bold; }
                    .noprint { margin-bottom: 6mm; }
                    @media print { .noprint { display: none; } }
                  </style>
                </head>
                <body>
                  <p class="noprint"><button onclick="window.print()">Print</button></p>
                  <h1>{{ report.day|date:"l j F" }}</h1>

                  <h2>Bake</h2>
                  <table>
                    {% for name, qty in report.totals %}
                      <tr><td class="qty">{{ qty }}</td><td>{{ name }}</td></tr>
                    {% endfor %}
                  </table>

                  <h2>Pickups ({{ report.order_count }})</h2>
                  <table>
                    {% for when, customer, lines in report.pickups %}
                      <tr>
                        <td class="time">{{ when }}</td>
                        <td>{{ customer }}<br>
                          {% for qty, name in lines %}{{ qty }} × {{ name }}{% if not forloop.last %},{% endif %}
                          {% endfor %}
                        </td>
                      </tr>
                    {% endfor %}
                  </table>
                </body>
                </html>
                ```

                The `@media print` rule hides the Print button on paper, and everything is pure black so
                the mono printer doesn't turn greys into speckle. Visit
                `https://www.wrenstreetbakery.co.uk/staff/report/2026-02-04/` while logged in to the
                admin. I'd also put a link to it in the email so Josh can open it straight from his
                phone.
                """
            )
        ),
        u(
            w(
                r"""
                That's brilliant. It looks like a proper document. Josh printed tomorrow's at home and
                brought it in, which is a first.

                Now, things that aren't on the website but need to be on the list. Bramble Café on
                Catherine Hill takes 20 baguettes every Thursday, it's a standing arrangement, they pay
                monthly by bank transfer. And Marek's mum has a country loaf every Friday, which she does
                not pay for and never will. Josh keeps those in his head and one day his head will be on
                holiday.
                """
            ),
            key="mt-cafe-1",
        ),
        a(
            w(
                r"""
                Let's put the heads-on-holiday risk to bed with **standing orders**: regular orders that
                repeat on a weekday, entered once in the admin and added to the bake list automatically.

                Add to `orders/models.py`:

                ```python
                class StandingOrder(models.Model):
                    WEEKDAYS = [(0, "Monday"), (1, "Tuesday"), (2, "Wednesday"), (3, "Thursday"),
                                (4, "Friday"), (5, "Saturday"), (6, "Sunday")]

                    customer = models.CharField(max_length=100)
                    weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS)
                    product = models.ForeignKey(Product, on_delete=models.PROTECT)
                    quantity = models.PositiveSmallIntegerField()
                    active = models.BooleanField(default=True)
                    note = models.CharField(max_length=200, blank=True)

                    def __str__(self):
                        return f"{self.customer}: {self.quantity} x {self.product} on {self.get_weekday_display()}"
                ```

                Register it in `admin.py`:

                ```python
                @admin.register(StandingOrder)
                class StandingOrderAdmin(admin.ModelAdmin):
                    list_display = ["customer", "weekday", "product", "quantity", "active"]
                    list_filter = ["weekday", "active"]
                ```

                In `reports.py`, fold them into the totals and list them separately under the pickups.
                Replace the start of `build_production_report` up to `report.totals = ...` with:

                ```python
                def build_production_report(day):
                    items = OrderItem.objects.filter(order__pickup_at__date=day).exclude(
                        order__status=Order.Status.CANCELLED
                    )
                    counts = defaultdict(int)
                    order_key = {}
                    for row in items.values("product__name", "product__sort_order").annotate(quantity=Sum("quantity")):
                        counts[row["product__name"]] += row["quantity"]
                        order_key[row["product__name"]] = row["product__sort_order"]

                    standing = StandingOrder.objects.filter(weekday=day.weekday(), active=True)
                    standing = standing.select_related("product")
                    for so in standing:
                        counts[so.product.name] += so.quantity
                        order_key[so.product.name] = so.product.sort_order

                    report = ProductionReport(day=day)
                    report.totals = sorted(counts.items(), key=lambda pair: (order_key[pair[0]], pair[0]))
                    report.standing = [(so.customer, so.quantity, so.product.name) for so in standing]
                ```

                add `standing: list = field(default_factory=list)` to the `ProductionReport` class, and
                import `StandingOrder` at the top. In the sheet, after the pickups table:

                ```html
                  {% if report.standing %}
                  <h2>Regulars</h2>
                  <table>
                    {% for customer, qty, name in report.standing %}
                      <tr><td class="qty">{{ qty }}</td><td>{{ name }} – {{ customer }}</td></tr>
                    {% endfor %}
                  </table>
                  {% endif %}
                ```

                Then **in the project folder**, `makemigrations`, `migrate`, and enter Bramble Café
                (Thursday, Baguette, 20) and Marek's mum (Friday, Country loaf, 1, note "no charge,
                ever") in the admin. Same again on the server after `git pull`.
                """
            )
        ),
        u(
            w(
                r"""
                Done. "no charge, ever" made Marek laugh.

                Josh's next request, and then I'll stop: can the sheet tell him how many bakes? The
                oven's a three-deck Tom Chandley, it takes 24 loaves a bake across the three decks. He
                works out the number of bakes on the back of his hand every morning. Buns and baguettes
                don't count, the buns go on trays in the little convection oven and baguettes are their
                own thing on the bottom deck after the loaves.
                """
            ),
            key="sf-oven",
        ),
        a(
            w(
                r"""
                Easy, and a good reason to have the numbers in a computer. We need to know which products
                are "loaves" for the deck oven, so add a tick box to `Product`:

                ```python
                    deck_loaf = models.BooleanField(default=False, help_text="Baked in the deck oven, 24 per bake")
                ```

                and in `settings.py`:

                ```python
                LOAVES_PER_BAKE = 24
                ```

                In `reports.py`, at the end of `build_production_report`, before `return report`:

                ```python
                    loaf_names = set(Product.objects.filter(deck_loaf=True).values_list("name", flat=True))
                    report.loaves = sum(qty for name, qty in report.totals if name in loaf_names)
                    report.bakes = -(-report.loaves // settings.LOAVES_PER_BAKE)  # rounds up
                ```

                (`-(-a // b)` is a short way of dividing and rounding up: 50 loaves is 3 bakes, not 2.)
                Add `loaves: int = 0` and `bakes: int = 0` to the dataclass, import `Product` and
                `settings`, and on the sheet under the Bake table:

                ```html
                  <p><strong>
                    {{ report.loaves }} loaves = {{ report.bakes }} bake{{ report.bakes|pluralize }}
                  </strong></p>
                ```

                Tick `deck_loaf` for white sourdough, seeded rye and country loaf in the admin.
                """
            )
        ),
        u(
            "Done. Tilly's school has a cake sale on Friday and she wants to 'do a bake' with Josh, which "
            "means she'll put sprinkles on things at six in the morning and tell everyone she made them."
        ),
        a(
            "That's exactly how most bakers start. If Josh can spare a tray of buns, she'll be the most "
            "popular person at the sale."
        ),
        u(
            "Email came at 14:05 for both of us today. Josh printed the sheet and pinned it up and said "
            "'not bad', which from him is a standing ovation."
        ),
        a(
            "I'll take a Josh 'not bad'. Next time, if you like, we can look at costs per loaf, or anything "
            "the first full week throws up."
        ),
    ],
)

S6 = Session(
    "2026-02-10T20:30:00Z",
    [
        u(
            w(
                r"""
                Bad news letter today from Shipton Mill, who do all our flour. From 1 March their organic
                white goes from £26.50 to £31.20 a 25 kg sack, and the wholemeal and the rye go up by about
                the same, roughly 18%. Butter's been creeping up for a year as well.

                I honestly don't know what a loaf costs me to make. I know what I charge. Could the site
                work it out? I'd like to put in what each ingredient costs and how much goes in each
                loaf, and have it tell me. Then when the next letter comes I change one number.
                """
            ),
            key="ku-supplier-old",
        ),
        a(
            w(
                r"""
                Yes, and it's a good fit for the admin: three small models and one sum.

                - **Supplier**: who you buy from (Shipton Mill, the dairy, and so on).
                - **Ingredient**: something you buy, with the pack size and the pack price, e.g. "Organic
                  white flour, 25,000 g, £31.20". From those it works out the price per gram.
                - **RecipeLine**: how much of an ingredient goes into one of a product, e.g. "White
                  sourdough: 550 g organic white flour".

                Add to `orders/models.py`:

                ```python
                from decimal import Decimal


                class Supplier(models.Model):
                    name = models.CharField(max_length=100)
                    contact = models.CharField(max_length=200, blank=True)
                    notes = models.TextField(blank=True)

                    def __str__(self):
                        return self.name


                class Ingredient(models.Model):
                    name = models.CharField(max_length=100)
                    supplier = models.ForeignKey(Supplier, on_delete=models.PROTECT, related_name="ingredients")
                    pack_grams = models.PositiveIntegerField(
                        help_text="Size of the pack in grams, e.g. 25000 for a 25 kg sack"
                    )
                    pack_price_pence = models.PositiveIntegerField(help_text="What one pack costs you, in pence")
                    updated = models.DateField(auto_now=True)

                    def __str__(self):
                        return self.name

                    @property
                    def pence_per_gram(self):
                        return Decimal(self.pack_price_pence) / Decimal(self.pack_grams)


                class RecipeLine(models.Model):
                    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="recipe")
                    ingredient = models.ForeignKey(Ingredient, on_delete=models.PROTECT)
                    grams = models.DecimalField(max_digits=8, decimal_places=1)

                    @property
                    def cost_pence(self):
                        return self.grams * self.ingredient.pence_per_gram
                ```

                And on `Product`, a property that adds its recipe up:

                ```python
                    @property
                    def ingredient_cost_pence(self):
                        total = sum((line.cost_pence for line in self.recipe.select_related("ingredient")), Decimal(0))
                        return total.quantize(Decimal("1"))

                    @property
                    def ingredient_share(self):
                        if not self.price_pence:
                            return None
                        return f"{100 * self.ingredient_cost_pence / self.price_pence:.0f}%"
                ```

                In `admin.py`, show the recipe inside each product's page and the cost in the list:

                ```python
                class RecipeLineInline(admin.TabularInline):
                    model = RecipeLine
                    extra = 1


                @admin.register(Product)
                class ProductAdmin(admin.ModelAdmin):
                    list_display = ["name", "price_display", "ingredient_cost_pence", "ingredient_share", "active"]
                    inlines = [RecipeLineInline]


                @admin.register(Ingredient)
                class IngredientAdmin(admin.ModelAdmin):
                    list_display = ["name", "supplier", "pack_grams", "pack_price_pence", "updated"]
                    list_editable = ["pack_price_pence"]


                admin.site.register(Supplier)
                ```

                `list_editable` on the ingredient price means that when the next letter arrives you open
                the ingredients list, change the figures in the column, press Save once, and every
                product's cost updates. I used `Decimal` (Python's exact decimal numbers) rather than
                whole pence here because a gram of salt costs a fraction of a penny; the total is rounded
                to whole pence at the end.

                Send me your sourdough recipe per loaf and what you pay for each ingredient, and I'll
                do the first one by hand so you can check the site gets the same answer.
                """
            )
        ),
        u(
            w(
                r"""
                White sourdough, per loaf (it's 1 kg of dough, roughly):

                - Organic white flour 550 g (Shipton, £31.20 per 25 kg from March)
                - Organic wholemeal 50 g (Shipton, £29.80 per 25 kg from March)
                - Salt 12 g (Maldon fine, we buy 25 kg at £38)
                - Water, free-ish
                - Levain is made from the same flour, call it included

                Can you do the table so I can paste it into LibreOffice afterwards? I don't have Excel,
                the laptop came with LibreOffice and I refuse to pay Microsoft every month for a
                spreadsheet. Plain columns are best, it goes funny with fancy formatting.
                """
            ),
            key="pref-libre",
        ),
        a(
            w(
                r"""
                Here it is as plain comma-separated columns, which LibreOffice Calc opens cleanly (paste,
                and if it asks, choose "comma" as the separator):

                ```
                Ingredient,Grams per loaf,Pack grams,Pack price (£),Cost per loaf (£)
                Organic white flour,550,25000,31.20,0.686
                Organic wholemeal,50,25000,29.80,0.060
                Salt (Maldon fine),12,25000,38.00,0.018
                Water,,,,0.000
                Total,,,,0.764
                ```

                So about **£0.76 of ingredients** in a £4.20 loaf, roughly 18%. Before the flour rise it
                would have been about £0.65.

                That sounds like a fat margin, but the ingredients are the smallest part of a loaf's
                cost. A rough rule for small bakeries is that ingredients are 15–25% of price, labour
                30–40%, and energy, rent, packaging and card fees the rest. If Josh is paid £13 an hour
                and shapes, proves and bakes, say, 120 loaves in a morning alongside everything else, the
                loaf carries real labour cost, and the oven's gas is significant. I'd use the site's
                figure as "what the flour letter does to me", not as "what a loaf costs".

                The flour rise itself costs you about 11p a loaf. On 300 sourdoughs a week that's £33 a
                week, roughly £1,700 a year, from one letter.

                Once you've entered the three ingredients and the recipe in the admin, the product list
                should show 76 in the cost column and 18% in the share column. If it does, we know the
                sums are right and you can fill in the others.
                """
            )
        ),
        u(
            w(
                r"""
                It says 76 and 18%. Marek looked at it and said I've undercharged since 2019, which is
                rich coming from a man who thinks sourdough is a "posh loaf". I'll sleep on the prices.

                Practical question though: if I put a price up in the admin, what happens to people who
                already ordered for next week at the old price? I don't want anyone charged more after
                the fact.
                """
            )
        ),
        a(
            w(
                r"""
                Nothing happens to them, and that's the point of the `unit_price_pence` snapshot on each
                order line from the first evening. When you change the price:

                1. Orders **already placed and paid** keep the price they paid. They were charged by
                   Stripe at that moment and the order line stores it.
                2. Orders **placed after** you press Save use the new price, both on the order page and
                   in what Stripe charges.
                3. The production report doesn't care about prices at all, so it's unaffected.

                If you want to give people notice, the usual way is to change the price on a set date
                and put a line on the order page a week before ("From Monday 2 March the white sourdough
                will be …"). The site can't schedule a future price by itself at the moment; if you'd
                like that we could add a "new price from" date to products, but it's probably simpler to
                change it yourself on the morning.
                """
            )
        ),
        u(
            w(
                r"""
                OK, different problem, and Josh is grumpy about it. Saturday's sheet said 42 white
                sourdoughs and he baked 42, but only 36 were collected and there were no names left over.
                I went through the admin and found these for Saturday:

                ```
                Customer        Pickup             Status
                J Hartley       2026-02-07 09:15   Waiting for payment
                J Hartley       2026-02-07 09:15   Paid
                S. Okonjo       2026-02-07 10:30   Waiting for payment
                Kath Reeve      2026-02-07 11:00   Waiting for payment
                ```

                The "waiting" ones had 6 sourdoughs between them. People who started and never paid?
                """
            )
        ),
        a(
            w(
                r"""
                Exactly that, and it's my mistake: the report only leaves out *cancelled* orders, so it
                counted orders where someone filled in the form, went to Stripe, and then closed the
                tab (or, like J Hartley, went back and started again). The same mistake means those
                unpaid orders were taking up places in their pickup slots too.

                The fix is to count only what's actually paid. In `reports.py`, change both filters in
                `build_production_report`:

                ```python
                LIVE = [Order.Status.PAID, Order.Status.COLLECTED]


                def build_production_report(day):
                    items = OrderItem.objects.filter(order__pickup_at__date=day, order__status__in=LIVE)
                    # ... everything else as before, and further down:
                    orders = Order.objects.filter(pickup_at__date=day, status__in=LIVE)
                ```

                For the slots it's a little different: someone who's on the Stripe page *right now*
                should hold their place for a few minutes, or two people could pay for the last space.
                So in `slots.py`, count paid orders plus pending ones started in the last 30 minutes:

                ```python
                from datetime import timedelta

                from django.db.models import Q

                PENDING_HOLD = timedelta(minutes=30)


                def taken_per_slot(day):
                    # How many live orders already sit in each slot on `day`.
                    recent = timezone.now() - PENDING_HOLD
                    orders = Order.objects.filter(pickup_at__date=day).filter(
                        Q(status__in=[Order.Status.PAID, Order.Status.COLLECTED])
                        | Q(status=Order.Status.PENDING, created__gte=recent)
                    )
                    return Counter(order.pickup_at.time() for order in orders)
                ```

                And to keep the admin tidy, a command that cancels unpaid orders older than a day,
                `orders/management/commands/expire_unpaid.py`:

                ```python
                from datetime import timedelta

                from django.core.management.base import BaseCommand
                from django.utils import timezone

                from orders.models import Order


                class Command(BaseCommand):
                    help = "Cancel orders that were never paid, a day after they were started."

                    def handle(self, *args, **options):
                        old = timezone.now() - timedelta(days=1)
                        count = Order.objects.filter(status=Order.Status.PENDING, created__lt=old).update(
                            status=Order.Status.CANCELLED
                        )
                        self.stdout.write(f"Cancelled {count} unpaid orders")
                ```

                Add it as a second daily task on PythonAnywhere, say at 03:00, with the same `cd …
                &&` shape as the report. Apologies to Josh for the six spare sourdoughs.
                """
            ),
            key="mt-bug-1",
        ),
        u(
            w(
                r"""
                He gave them to the food bank on Sunday, so not wasted. Fixed and pushed, and tomorrow's
                sheet looks right against the paid orders.

                New thing for this weekend: Valentine's. We do cardamom buns, £2.80 each, only on Friday
                and Saturday this week, and in the past we've been swamped. I want them on the website
                but only for collection on those two days. Then probably again some weekends.
                """
            ),
            key="mt-prod-1",
        ),
        a(
            w(
                r"""
                Let's give products an optional list of days they can be collected on, so the order form
                only offers them when they're available. Leaving it empty means "every pickup day", which
                keeps all your existing products as they are.

                In `models.py`, on `Product`:

                ```python
                    available_weekdays = models.CharField(
                        max_length=20,
                        blank=True,
                        help_text="Pickup weekdays, Monday=0: e.g. '4,5' for Friday and Saturday. Empty = every day.",
                    )
                    available_from = models.DateField(null=True, blank=True)
                    available_until = models.DateField(null=True, blank=True)

                    def available_on(self, day):
                        if self.available_from and day < self.available_from:
                            return False
                        if self.available_until and day > self.available_until:
                            return False
                        if not self.available_weekdays.strip():
                            return True
                        days = {int(part) for part in self.available_weekdays.split(",") if part.strip()}
                        return day.weekday() in days
                ```

                In `forms.py`, in `OrderForm.__init__`, change the products line to:

                ```python
                        self.products = [p for p in Product.objects.filter(active=True) if p.available_on(day)]
                ```

                For this weekend: add "Cardamom bun", 280 pence, weekdays `4,5`, available from
                2026-02-13 until 2026-02-14. For "some weekends" later, clear the dates and set new
                ones. `makemigrations` and `migrate` on both laptop and server as usual.

                If you want to cap how many you sell, tell me the number Josh can do per day and we'll
                add that too; popular limited things tend to sell out online faster than anyone expects.
                """
            )
        ),
        u(
            "He says 150 a day is the most, but let's see how it goes first. Marek and I are 'celebrating' "
            "Valentine's with a curry on Sunday because Saturday I'll be asleep by 20:00."
        ),
        a(
            "Sounds like a sensible Valentine's for a baker. If the buns look like selling out, the cap is "
            "ten minutes' work, so message me and we'll add it."
        ),
    ],
)

S7 = Session(
    "2026-02-18T21:00:00Z",
    [
        u(
            w(
                r"""
                Half-term, so Tilly has been "helping" in the shop all week, which today meant
                reorganising the paper bags by size and informing a customer that our scones are "fine".

                Problem: a customer has emailed to say she was charged twice. She's a regular, very nice
                about it. From the Stripe dashboard:

                ```
                Payments
                £13.80  Succeeded  c.ashworth@...  2026-02-17 09:12:41  metadata: order_id 212
                £13.80  Succeeded  c.ashworth@...  2026-02-17 09:13:20  metadata: order_id 212
                ```

                Her order in the admin is one order, number 212, 3 x White sourdough at £4.60, Paid. So
                one order and two payments. She says the first time "the page went white for ages" so she
                pressed back and paid again.
                """
            ),
            key="ku-price-new",
        ),
        a(
            w(
                r"""
                Her description explains it exactly, and it's a gap in what I wrote, so sorry about that.
                Here's the sequence:

                1. She pays on Stripe's page. Stripe takes the money and sends her browser back to your
                   "thank you" page, and separately sends the webhook.
                2. The thank-you page was slow (the "white for ages"), so she pressed back and landed on
                   the order summary, which still showed **Pay now**.
                3. The webhook hadn't marked the order paid yet, so `start_checkout` saw a pending order
                   and happily made a *second* Stripe payment page for it. She paid again.
                4. Both webhooks arrived; the first marked it paid, the second changed nothing. So one
                   paid order, two payments.

                The fix is to make "Pay now" reuse the payment page an order already has, and to check
                with Stripe whether it's already been paid. In `views.py`, replace `start_checkout`:

                ```python
                def start_checkout(request, order_id):
                    order = get_object_or_404(Order, pk=order_id)
                    stripe.api_key = settings.STRIPE_SECRET_KEY

                    if order.status != Order.Status.PENDING:
                        return redirect("order_thanks", order_id=order.pk)

                    if order.stripe_session_id:
                        existing = stripe.checkout.Session.retrieve(order.stripe_session_id)
                        if existing.status == "complete":
                            # Paid, webhook not here yet: don't offer to pay again.
                            return redirect("order_thanks", order_id=order.pk)
                        if existing.status == "open":
                            return redirect(existing.url, permanent=False)
                        # "expired": fall through and make a fresh one.

                    session = stripe.checkout.Session.create(
                        mode="payment",
                        customer_email=order.email,
                        line_items=[
                            {
                                "quantity": item.quantity,
                                "price_data": {
                                    "currency": "gbp",
                                    "unit_amount": item.unit_price_pence,
                                    "product_data": {"name": item.product.name},
                                },
                            }
                            for item in order.items.select_related("product")
                        ],
                        metadata={"order_id": str(order.pk)},
                        success_url=f"{settings.SITE_URL}/order/thanks/{order.pk}/",
                        cancel_url=f"{settings.SITE_URL}/order/summary/{order.pk}/",
                        expires_at=int(time.time()) + 30 * 60,
                    )
                    order.stripe_session_id = session.id
                    order.save(update_fields=["stripe_session_id"])
                    return redirect(session.url, permanent=False)
                ```

                (add `import time` at the top). `expires_at` makes an unpaid Stripe page lapse after 30
                minutes, matching the 30-minute hold on the slot from last week.

                And as a safety net, in `stripe_webhook`, if a payment arrives for an order that's
                already paid, email you so a human can refund it:

                ```python
                    if event["type"] == "checkout.session.completed":
                        session = event["data"]["object"]
                        order_id = session["metadata"].get("order_id")
                        changed = Order.objects.filter(pk=order_id, status=Order.Status.PENDING).update(
                            status=Order.Status.PAID
                        )
                        if changed:
                            send_confirmation(Order.objects.get(pk=order_id))
                        elif session["id"] != Order.objects.get(pk=order_id).stripe_session_id:
                            mail_admins(
                                f"Possible double payment on order {order_id}",
                                f"Stripe session {session['id']} paid for an order that was already paid.",
                            )
                ```

                `mail_admins` sends to the people listed in `ADMINS` in settings; add
                `ADMINS = [("Ros", "ros@wrenstreetbakery.co.uk")]`. Finally, make the thank-you page
                quicker by not waiting on anything: it only reads the order, so "white for ages" was
                probably PythonAnywhere waking up; we can keep an eye on that.
                """
            ),
            key="mt-bug-2",
        ),
        u("Pushed. How do I give her the second £13.80 back?"),
        a(
            w(
                r"""
                From the Stripe dashboard:

                1. **Payments** in the left menu.
                2. Click the **second** payment (09:13:20), so the first one stays as her real payment.
                3. Top right, **Refund**.
                4. Leave the amount as the full £13.80, reason "Duplicate", and confirm.
                5. It shows as "Refunded"; she'll see it on her card in 5–10 working days, and Stripe
                   emails her a receipt if you've left receipts on.

                Nothing to do in the admin, because her order is correctly one paid order. Stripe does
                not give back its fee on a refunded payment, so the double charge cost you 41p. Small,
                but another reason to be glad it's fixed.
                """
            )
        ),
        u(
            w(
                r"""
                Done, and she sent back a heart. Right, staffing the website. Two things:

                Priya's going to be in charge of refunds and the order desk from now on. She's better at
                polite emails than me and she's there every morning when people ring. She'll need to see
                and change orders, and do refunds in Stripe.

                And Josh wants to see the bake list on his phone without using my password, which he
                currently does, which I know is bad.
                """
            ),
            key="ku-refund-old",
        ),
        a(
            w(
                r"""
                Good moment to sort it properly. Everyone gets their own login, and each login only gets
                what that person needs. Django does this with **groups** (a named bundle of permissions,
                e.g. "Counter") and **permissions** (yes/no switches like "can change order").

                **In the Django admin** (logged in as you):

                1. Authentication → **Groups** → Add. Name: `Counter`. Permissions: `orders | order |
                   Can view order`, `Can change order`, `orders | order item | Can view order item`,
                   `Can change order item`, `orders | product | Can view product`. Save.
                2. Add another group, `Bakehouse`, with only `orders | order | Can view order` and
                   `orders | standing order | Can view standing order`.
                3. Users → Add user → username `priya`, a temporary password. On the next page: tick
                   **Staff status**, leave Superuser unticked, add her to **Counter**, fill in her name
                   and email. Save.
                4. Same for `josh` in **Bakehouse**.
                5. **Change your own password**, since Josh knows it (top right → Change password).

                The bake sheet page uses `staff_member_required`, so anyone with staff status can open
                it; Josh doesn't need anything more.

                **In Stripe** (Settings → Team and security → Add member):

                6. Invite Priya with the **Support specialist** role. That lets her look up payments and
                   issue refunds, but not change bank details or see your payouts. Stripe will make her
                   set up two-step login when she accepts.

                A word on that: **two-step login** (also "two-factor") means that after the password,
                the site asks for a code from an app on your phone, so a stolen password alone isn't
                enough. Stripe insists on it for good reason, it's where the money is.
                """
            ),
            key="mt-staff-1",
        ),
        u(
            w(
                r"""
                Made both. Priya tried from the counter iPad and got:

                ```
                Please enter the correct username and password for a staff account. Note that both
                fields may be case-sensitive.
                ```

                She's typing it right, I watched.
                """
            )
        ),
        a(
            w(
                r"""
                That exact message appears when the password is right but **Staff status** is unticked:
                the admin only lets in staff accounts, and it deliberately gives the same message either
                way so nobody can tell which part was wrong. Open her user in the admin, tick **Staff
                status**, Save. Check Josh's too. (The other common cause is the iPad capitalising the
                first letter of the username, "Priya" instead of "priya"; usernames are case-sensitive.)
                """
            )
        ),
        u(
            "It was the tick, on both. Josh is in. He says the sheet on his phone is 'the size of a stamp' "
            "though, he has to pinch it bigger."
        ),
        a(
            w(
                r"""
                The sheet lacks the line that tells phones to lay the page out for a small screen, so
                they shrink a desktop-width page instead. Add this inside `<head>` in
                `production_sheet.html`, just after the `charset` line:

                ```html
                  <meta name="viewport" content="width=device-width, initial-scale=1">
                ```

                and, so the A4 sizes don't make it enormous on a phone, add to the `<style>` block:

                ```css
                    @media screen and (max-width: 600px) {
                      body { font-size: 14pt; }
                      h1 { font-size: 20pt; }
                      td.qty { font-size: 18pt; }
                    }
                ```

                Print is untouched, because the phone rules only apply to screens narrower than 600
                pixels. The same viewport line belongs on the order page too, since most customers will
                be on phones: add it to `order_form.html`, `choose_day.html` and `summary.html`.
                """
            )
        ),
        u(
            w(
                r"""
                Oh no, that means customers have had the stamp version too. Done on all of them.

                Tilly made a sign for the back office that says BREADBOOK HQ in glitter. Josh has
                pinned it next to the bake sheet and says he's keeping it.
                """
            )
        ),
        a(
            "Then the name has stuck whether we like it or not. On the order pages: the summary and form had "
            "my CSS, so they weren't tiny, but they'll sit much better now. Worth ordering something from "
            "your own phone to see it as customers do."
        ),
        u("Ordered a baguette from the sofa. It looks like a real website. Bed."),
        a("Good. Seeing it as a customer does is the best test there is. Sleep well."),
        u(
            w(
                r"""
                Quick one before I forget, from the counter this morning: a customer asked for a receipt
                "with the VAT number on" for her work expenses. We're not VAT registered, we're well
                under the limit. Priya didn't know what to say and neither did I. Is there something
                the site should be sending?
                """
            )
        ),
        a(
            w(
                r"""
                There's nothing missing on your side: a business that isn't registered for VAT has no
                VAT number and mustn't show one or charge VAT. What she needs for expenses is an ordinary
                receipt showing who was paid, what for, how much and when, and she already gets two:

                1. **Your confirmation email**, which lists the items, the total and the collection
                   date.
                2. **Stripe's own receipt**, if receipts are switched on. In Stripe: Settings → Business
                   → Customer emails → tick **Successful payments**. Stripe then emails a receipt with
                   your business name and the amount. While you're there, check the public business
                   name says "Wren Street Bakery" and add the shop address, so the receipt looks like it
                   came from a shop rather than a person.

                What Priya can say at the counter: "We're not VAT registered, so there's no VAT on your
                bread and no VAT number; your email receipt is a valid receipt for expenses." Most
                employers are perfectly happy with that. (For what it's worth, most plain bread and buns
                are zero-rated for VAT anyway, so even a registered bakery would usually show £0.00 VAT
                on a loaf.)

                The registration threshold is currently £90,000 of taxable turnover over any twelve
                months. Whoever does your books will keep an eye on that; with the website
                adding sales it's worth asking them once a year where you stand.
                """
            )
        ),
    ],
)

S8 = Session(
    "2026-02-26T20:45:00Z",
    [
        u(
            w(
                r"""
                Two changes from Josh, who is becoming quite demanding now he has a phone full of data.

                First, he wants the numbers earlier. With orders closing at 14:00 he doesn't know the
                count until he's nearly gone home, and he wants to build the levain for the next day
                knowing the numbers. So please make ordering close at 12:00 the day before instead.
                Customers won't mind, most of them order days ahead anyway.

                Second, focaccia. We do it on Saturdays only, £3.50 a slab, rosemary and sea salt. Can
                it go on the site for Saturdays like the cardamom buns?
                """
            ),
            key="ku-cutoff-new",
        ),
        a(
            w(
                r"""
                Both are small.

                **Earlier cutoff.** In `config/settings.py`:

                ```python
                ORDER_CUTOFF = time(12, 0)   # orders for a day close at this time the day before
                ```

                Then three things that mention the old time:

                1. On PythonAnywhere, Tasks tab: move the daily `send_production_report` task from
                   14:05 to **12:05**.
                2. The cards by the till say "Order by 14:00 the day before". When they run out, reprint
                   with 12:00. Until then, a line on the order page avoids arguments; in
                   `choose_day.html`, above the list of days:
                   ```html
                   <p>Order by 12:00 the day before you collect.</p>
                   ```
                3. Nothing in the code, because `ordering_open_for` reads the setting.

                Push from the laptop, then on the server **in `/home/wrenstreet/bakery`**: `git pull` and
                Reload. Orders already placed aren't affected. The only visible change is that from
                tomorrow at 12:00, Saturday disappears from the list two hours earlier than it used to.

                **Focaccia.** No code at all: in the admin, add a product "Focaccia (rosemary and sea
                salt)", price `350`, `available_weekdays` = `5`, no dates, and leave `deck_loaf`
                unticked (I'm guessing it's baked in trays, not on the decks; tell me if it should count
                towards bakes). It will appear on the order form for Saturdays only.
                """
            )
        ),
        u(
            w(
                r"""
                Trays, yes. Done.

                Next, closures. The oven's getting its service 2026-03-09 to 2026-03-11, Monday to
                Wednesday, so the Wednesday has no bread and we're shut. Then there'll be Easter and the
                summer fortnight and so on. At the moment the site would happily take orders for
                Wednesday the 11th. I'd like to be able to put in days we're closed, and for the site to
                say so nicely, and a notice I can put on the door and on Instagram.
                """
            )
        ),
        a(
            w(
                r"""
                Let's add a list of closed dates you manage in the admin, and have the slot code skip
                them.

                `orders/models.py`:

                ```python
                class ClosedDay(models.Model):
                    day = models.DateField(unique=True)
                    reason = models.CharField(
                        max_length=100, blank=True, help_text="Shown to customers, e.g. 'oven service'"
                    )

                    class Meta:
                        ordering = ["day"]

                    def __str__(self):
                        return f"{self.day:%Y-%m-%d} {self.reason}".strip()
                ```

                `admin.py`:

                ```python
                @admin.register(ClosedDay)
                class ClosedDayAdmin(admin.ModelAdmin):
                    list_display = ["day", "reason"]
                ```

                `slots.py`, at the very start of `slot_times`:

                ```python
                def slot_times(day):
                    if ClosedDay.objects.filter(day=day).exists():
                        return []
                    hours = settings.OPENING_HOURS.get(day.weekday())
                    ...
                ```

                (import `ClosedDay` next to `Order`). Because `bookable_days` only lists days that have
                slots, a closed day simply won't be offered.

                To tell customers, in the `choose_day` view pass the closures in the next fortnight:

                ```python
                def choose_day(request):
                    today = timezone.localdate()
                    until = today + timedelta(days=settings.DAYS_AHEAD)
                    closures = ClosedDay.objects.filter(day__gte=today, day__lte=until)
                    return render(request, "orders/choose_day.html", {"days": bookable_days(), "closures": closures})
                ```

                and in `choose_day.html`, above the days:

                ```html
                {% if closures %}
                  <div class="notice">
                    {% for c in closures %}
                      <p>We're closed on {{ c.day|date:"l j F" }}{% if c.reason %} ({{ c.reason }}){% endif %}.</p>
                    {% endfor %}
                  </div>
                {% endif %}
                ```

                After `makemigrations`/`migrate` on both machines, add 2026-03-11 with reason "oven
                service" (you can add the 9th and 10th too; it does no harm and keeps the record
                honest).

                **The notice for the door and Instagram:**

                ```
                CLOSED FOR OUR OVEN'S SERVICE

                Our oven is having its yearly service, so the shop will be closed
                on Wednesday 2026-03-11.

                We're open as usual on Tuesday 2026-03-10 (no pre-orders that day)
                and back with a full shelf on Thursday 2026-03-12 from 08:00.

                You can order for Thursday onwards at www.wrenstreetbakery.co.uk
                – orders close at 12:00 the day before.

                Thank you for bearing with us.
                Wren Street Bakery
                ```

                For Instagram you might want to add one line of personality, such as "Even ovens need
                a day off", but I've left the door version plain.
                """
            ),
            key="rc-notice",
        ),
        u(
            w(
                r"""
                Perfect, printed and up. Wait, we're shut Monday and Tuesday anyway for the public? No, we
                are open on Tuesday for walk-ins, you got that right, I had to think.

                While we're in there: the opening hours are in the settings file, which means every time
                they change I have to ask you and push and pull. Can I have them in the admin like
                everything else?
                """
            )
        ),
        a(
            w(
                r"""
                Yes. A small table with one row per weekday you do pickups on. `models.py`:

                ```python
                class OpeningHours(models.Model):
                    weekday = models.PositiveSmallIntegerField(choices=StandingOrder.WEEKDAYS, unique=True)
                    opens = models.TimeField()
                    closes = models.TimeField()
                    pickups = models.BooleanField(
                        default=True, help_text="Untick for days open to walk-ins but without pre-orders"
                    )

                    class Meta:
                        ordering = ["weekday"]
                        verbose_name_plural = "opening hours"

                    def __str__(self):
                        return f"{self.get_weekday_display()} {self.opens:%H:%M}–{self.closes:%H:%M}"
                ```

                (move the `WEEKDAYS` list out of `StandingOrder` to the top of the file if you prefer;
                it works either way as long as `StandingOrder` is defined above `OpeningHours`.)

                `admin.py`:

                ```python
                @admin.register(OpeningHours)
                class OpeningHoursAdmin(admin.ModelAdmin):
                    list_display = ["weekday", "opens", "closes", "pickups"]
                    list_editable = ["opens", "closes", "pickups"]
                ```

                In `slots.py`, read from the table instead of settings:

                ```python
                def slot_times(day):
                    if ClosedDay.objects.filter(day=day).exists():
                        return []
                    hours = OpeningHours.objects.filter(weekday=day.weekday(), pickups=True).first()
                    if hours is None:
                        return []
                    step = timedelta(minutes=settings.SLOT_MINUTES)
                    current = datetime.combine(day, hours.opens)
                    last = datetime.combine(day, hours.closes) - step
                    times = []
                    while current <= last:
                        times.append(current.time())
                        current += step
                    return times
                ```

                Then **in the project folder**: `makemigrations`, `migrate`, and in the admin add your
                current hours: Tuesday 08:00–15:30 with pickups unticked, Wednesday to Friday
                08:00–15:30, Saturday 08:00–13:00. Do the same on the server after `git pull` and
                `migrate`. Once it's working you can delete `OPENING_HOURS` from settings.
                """
            )
        ),
        u(
            w(
                r"""
                Did it on the laptop, fine. On the server I clicked "Add" for Saturday and got this:

                ```
                IntegrityError at /admin/orders/openinghours/add/
                UNIQUE constraint failed: orders_openinghours.weekday
                ```
                """
            )
        ),
        a(
            w(
                r"""
                That means there's already a Saturday row on the server, and `unique=True` on `weekday`
                stops a second one (which is what we want: two Saturdays would confuse the slots). You
                most likely added it a moment earlier and the page didn't show it, or pressed Save twice.

                Go to Opening hours in the admin list, and you'll see Saturday already there. Edit that
                one instead. If there are two of anything else, which shouldn't be possible, tell me.

                Django normally catches this on the form and shows a friendly "Opening hours with this
                Weekday already exists" message; getting the raw error instead suggests the migration
                added the rule while the form page was already open. Harmless.
                """
            )
        ),
        u(
            w(
                r"""
                Yes, Saturday was there already. All five days in and the order page looks identical,
                which I gather is the point.

                Marek's van failed its MOT today, so he's in a mood, and we need the van for the market
                in the summer. Can you remind me what's still on our list? I've lost track between the
                bread and the van.
                """
            )
        ),
        a(
            w(
                r"""
                Sorry about the van. Here's where we are.

                **Done so far**

                1. Products, orders and the admin.
                2. Order page with quarter-hour pickup slots, six per slot, closing at 12:00 the day
                   before.
                3. Stripe checkout and webhook; confirmation emails through Brevo.
                4. Live on PythonAnywhere at www.wrenstreetbakery.co.uk.
                5. Daily bake list by email at 12:05, and the printable A4 sheet, with standing orders
                   and number of bakes.
                6. Ingredient costs per loaf.
                7. Unpaid orders no longer counted; the double-payment gap closed.
                8. Staff logins for Priya and Josh.
                9. Limited products by weekday and date (cardamom buns, focaccia).
                10. Closed days and opening hours in the admin.

                **Still to do**

                1. **Automatic backups** of the database. Right now it's you downloading `db.sqlite3`
                   when you remember. I'd do this next.
                2. **The clocks going forward on 29 March**: move the PythonAnywhere tasks an hour
                   earlier in UTC terms, and check the site around that weekend.
                3. **Per-product daily limits**, if the buns or Easter sell out.
                4. **An export for your accountant**, whenever your accountant asks.
                5. A **weekly summary** for you, if useful: what sold, what you took.
                """
            )
        ),
        u("Backups next time then. And I'll put the 29th in the diary."),
        a("Good plan. A day's orders lost would be a bad day; a week's would be a disaster. Next time."),
    ],
)

S9 = Session(
    "2026-03-12T21:20:00Z",
    [
        u(
            w(
                r"""
                Mother's Day orders have gone mad, which is lovely, but the site has been crawling since
                Monday. People are emailing that the page "spins". PythonAnywhere sent me an email saying
                I've used my daily CPU allowance and I'm "in the tarpit", whatever that is.

                Marek's nephew Tomasz, who does IT for an insurance company in Bristol, was here on Sunday
                and says PythonAnywhere is "a toy" and I should put it on a Hetzner server like he does
                for his own stuff, it's cheaper and faster and he'll help. Should I? I don't want to
                swap one problem for a bigger one I can't fix myself.
                """
            )
        ),
        a(
            w(
                r"""
                It's a fair worry, and Tomasz is half right.

                **What's happening.** PythonAnywhere gives each plan a daily allowance of processor time
                (the "CPU seconds"). When you use it up, your site still runs but at low priority behind
                everyone else's: that's the **tarpit**. Busy Mother's Day traffic plus the order page
                working out slots for fourteen days on every visit has pushed you over. It resets daily.

                **Your options:**

                | Option | Cost | Speed | Who looks after it |
                |---|---|---|---|
                | Stay on PythonAnywhere Hacker | $5/month | tarpit on busy days | PythonAnywhere |
                | Upgrade PythonAnywhere (more CPU seconds) | roughly double | fine | PythonAnywhere |
                | Hetzner small cloud server | about €4.51/month | much faster for you | you and Tomasz |

                **What moving really means.** On Hetzner you get an empty Linux computer. Someone has to
                install security updates, set up the web server, renew the HTTPS certificate (that's
                automatic once it's set up), and make backups. Most of that is a few hours once and then
                a little attention each month. It isn't hard, but it needs a person.

                **My honest view:** if Tomasz will do the set-up with you and is willing to be rung when
                something odd happens, Hetzner is a good move: cheaper, much faster, and you stop
                worrying about allowances. If he's the sort of helpful relative who disappears for six
                months, upgrading PythonAnywhere is the boring, safe choice.

                Either way, for this weekend, I can make the order page lighter: it currently builds
                slots for every day just to decide which days to list. A quick fix is to cache that list
                for one minute, so a hundred visitors in a minute cost the work of one.
                """
            )
        ),
        u(
            w(
                r"""
                Decision made: we're moving to Hetzner. Tomasz came round again tonight and we made the
                server together on his laptop. It's a CX22, in Falkenstein in Germany, €4.51 a month,
                Ubuntu 24.04. He's put my own login on it with a key instead of a password, which he said
                I should never give anyone, and he'll be on the end of WhatsApp. He's gone home now so
                it's me and you. What do I do?
                """
            ),
            key="ku-host-new",
        ),
        a(
            w(
                r"""
                Good: the key login is exactly right. Here's the whole move, numbered, for ticking. We'll
                run the site with **gunicorn** (a program that runs your Django site and handles many
                visitors at once) behind **nginx** (a web server that faces the internet, hands out the
                static files, deals with HTTPS and passes everything else to gunicorn). Gunicorn will
                listen only on the server itself, on port 8001; a **port** is a numbered door on a
                computer, and keeping gunicorn's door internal means only nginx can talk to it.

                Log in from the laptop's command window (any folder): `ssh ros@YOUR.SERVER.IP`.

                **1. Software** (any folder on the server):
                ```
                sudo apt update && sudo apt upgrade -y
                sudo apt install -y python3.12-venv nginx git sqlite3 certbot python3-certbot-nginx
                ```

                **2. The code** (in your home folder, `/home/ros`):
                ```
                git clone https://github.com/YOURNAME/bakery.git
                cd bakery
                python3 -m venv .venv
                .venv/bin/pip install -r requirements.txt gunicorn
                ```

                **3. The data and secrets.** Download `db.sqlite3` and `.env` from PythonAnywhere's Files
                tab, then from the **project folder on your laptop** (where you saved them):
                ```
                scp db.sqlite3 .env ros@YOUR.SERVER.IP:/home/ros/bakery/
                ```
                Then edit `/home/ros/bakery/.env` on the server and change `ALLOWED_HOSTS` to
                `www.wrenstreetbakery.co.uk,wrenstreetbakery.co.uk`.

                **4. Static files** (in `/home/ros/bakery`):
                ```
                .venv/bin/python manage.py migrate
                .venv/bin/python manage.py collectstatic --noinput
                ```

                **5. Gunicorn as a service**, so it starts on boot and restarts if it falls over. Create
                `/etc/systemd/system/bakery.service` with `sudo nano` (any folder):
                ```ini
                [Unit]
                Description=Wren Street Bakery (gunicorn)
                After=network.target

                [Service]
                User=ros
                WorkingDirectory=/home/ros/bakery
                EnvironmentFile=/home/ros/bakery/.env
                ExecStart=/home/ros/bakery/.venv/bin/gunicorn config.wsgi:application --bind 127.0.0.1:8001 --workers 3
                Restart=on-failure

                [Install]
                WantedBy=multi-user.target
                ```
                then:
                ```
                sudo systemctl daemon-reload
                sudo systemctl enable --now bakery
                ```
                Because `EnvironmentFile` loads `.env`, the `load_dotenv` lines are only needed for
                PythonAnywhere; they do no harm here.

                **6. Nginx.** Create `/etc/nginx/sites-available/bakery`:
                ```nginx
                server {
                    listen 80;
                    server_name www.wrenstreetbakery.co.uk wrenstreetbakery.co.uk;

                    location /static/ {
                        alias /home/ros/bakery/staticfiles/;
                    }

                    location / {
                        proxy_pass http://127.0.0.1:8000;
                        proxy_set_header Host $host;
                        proxy_set_header X-Forwarded-Proto $scheme;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    }
                }
                ```
                then (any folder):
                ```
                sudo ln -s /etc/nginx/sites-available/bakery /etc/nginx/sites-enabled/
                sudo rm /etc/nginx/sites-enabled/default
                sudo nginx -t && sudo systemctl reload nginx
                sudo chmod 755 /home/ros
                ```

                **7. DNS at 123-reg.** Replace the `www` CNAME with an **A record** for `www` pointing at
                the server's IP address, and add another A record for the bare domain (`@`). An A
                record is a phone-book entry that points a name straight at a numbered address.

                **8. HTTPS**, once the DNS has switched (check by visiting `http://www...` and seeing your
                site without the padlock):
                ```
                sudo certbot --nginx -d www.wrenstreetbakery.co.uk -d wrenstreetbakery.co.uk
                ```
                Choose "redirect" when asked. Certbot renews the certificate by itself from then on.

                **9. Django behind nginx** needs to know the original visit was HTTPS. In `settings.py`:
                ```python
                SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
                ```
                push, then on the server in `/home/ros/bakery`: `git pull` and
                `sudo systemctl restart bakery`.

                Do 1–6 tonight if you can, and paste whatever the browser says when you visit the
                server's IP address directly.
                """
            ),
            key="code-gunicorn",
        ),
        u(
            w(
                r"""
                Got to 6. Visiting the IP gives "502 Bad Gateway nginx/1.24.0". Tomasz told me to look at
                the nginx error log, and it says:

                ```
                2026/03/12 22:41:07 [error] 4121#4121: *3 connect() failed (111: Connection refused)
                while connecting to upstream, client: 86.12.x.x, server: www.wrenstreetbakery.co.uk,
                request: "GET / HTTP/1.1", upstream: "http://127.0.0.1:8000/", host: "49.12.x.x"
                ```

                And `systemctl status bakery` says active (running).
                """
            )
        ),
        a(
            w(
                r"""
                That's my typo, sorry. Gunicorn is listening on **8001** (in `bakery.service`), but the
                nginx file I gave you sends visitors to **8000**. Nothing is at 8000, so "connection
                refused", and nginx reports it as 502.

                Fix the nginx file, `/etc/nginx/sites-available/bakery`, so the `proxy_pass` line reads:

                ```nginx
                        proxy_pass http://127.0.0.1:8001;
                ```

                then (any folder):

                ```
                sudo nginx -t && sudo systemctl reload nginx
                ```

                Tomasz's advice to read the error log first is the single most useful habit for a
                server: the log nearly always names the problem, as it did here ("upstream ... 8000").
                """
            )
        ),
        u(
            w(
                r"""
                The order page came up on the IP! It's noticeably quicker even from here. DNS changed at
                123-reg and certbot worked this morning, padlock and everything.

                What about Josh's report and the unpaid-orders thing? They were PythonAnywhere tasks.
                And you said backups were next.
                """
            )
        ),
        a(
            w(
                r"""
                On a Linux server, scheduled jobs are **cron** jobs: a list of commands with the times
                to run them. A nice side effect: cron lets us say which clock to use, so the 29 March
                problem goes away.

                **Backup script.** Create `/home/ros/bakery/backup.sh` (in `/home/ros/bakery`,
                `nano backup.sh`):

                ```bash
                #!/bin/bash
                # Nightly copy of the orders database; keeps the last 30 days.
                set -euo pipefail
                mkdir -p /home/ros/backups
                stamp=$(date +%Y-%m-%d)
                sqlite3 /home/ros/bakery/db.sqlite3 ".backup '/home/ros/backups/db-$stamp.sqlite3'"
                gzip -f "/home/ros/backups/db-$stamp.sqlite3"
                find /home/ros/backups -name 'db-*.sqlite3.gz' -mtime +30 -delete
                ```

                Then `chmod +x backup.sh`. `.backup` is SQLite's own safe copy, which is fine to run
                while the site is taking orders; copying the file directly can catch it half-written.

                A backup on the same server isn't enough on its own: if the server goes, so do the
                backups. The cheapest place to keep a second copy is Hetzner's own "Backups" option for
                the server (20% on top, so about 90 cents a month, and it snapshots the whole machine
                daily). I'd tick that in the Hetzner console. It's a subscription, I know, but under a
                euro.

                **The cron list.** On the server, any folder: `crontab -e`, choose nano, and add at the
                bottom:

                First a tiny helper so the cron lines stay short, `/home/ros/bakery/run.sh`:

                ```bash
                #!/bin/bash
                # Run one manage.py command from the project folder, logging what it prints.
                cd /home/ros/bakery && .venv/bin/python manage.py "$@" >> /home/ros/cron.log 2>&1
                ```

                (`chmod +x run.sh` again.) Then the list:

                ```
                CRON_TZ=Europe/London
                # m  h  dom mon dow  command
                5  12  *   *   *    /home/ros/bakery/run.sh send_production_report
                0  3   *   *   *    /home/ros/bakery/run.sh expire_unpaid
                30 2   *   *   *    /home/ros/bakery/backup.sh >> /home/ros/cron.log 2>&1
                ```

                `CRON_TZ=Europe/London` means those times are UK times all year, summer or winter, so
                nothing needs moving on the 29th. The `>> /home/ros/cron.log` part writes what each job
                printed into a log file, so if Josh's email doesn't come you can look there first.

                Cron jobs don't read `.env` by themselves, so the report wouldn't find the email
                password. Add these two lines to `config/settings.py`, near the top after the imports,
                so Django loads `.env` itself wherever it's started:

                ```python
                from dotenv import load_dotenv

                load_dotenv(BASE_DIR / ".env")
                ```

                (put them just after `BASE_DIR = ...`). Then test the report right away from
                `/home/ros/bakery`: `.venv/bin/python manage.py send_production_report --print-only`.
                """
            )
        ),
        u(
            w(
                r"""
                Report test worked, backups folder has today's file in it, Hetzner backups ticked.

                Do I need to tell Stripe anything? And when do I cancel PythonAnywhere?
                """
            )
        ),
        a(
            w(
                r"""
                **Stripe:** nothing to change. The webhook address is
                `https://www.wrenstreetbakery.co.uk/stripe/webhook/`, and the name hasn't changed, only
                where it points. The `.env` you copied has the same live keys and signing secret. To be
                sure, after the next real order open Stripe → Developers → Webhooks → your endpoint, and
                check the latest attempt says **200 OK**.

                **PythonAnywhere:** leave it running for a week, in case any DNS stragglers still reach
                the old site. But *turn off its two scheduled tasks today*, or Josh will get two bake
                lists, and worse, the old site could take an order into the old database. The simplest
                guard is to disable the web app on PythonAnywhere's Web tab once you see orders arriving
                on the new server. Then cancel the plan after a week, and delete the account when you're
                sure, after one last download of its `db.sqlite3` for your records.
                """
            )
        ),
        u(
            w(
                r"""
                Tasks off, web app disabled, orders arriving in the new place, Stripe says 200 OK.
                Saturday is 96 orders for Mother's Day so far, on the one day. Priya and Bea are both on
                the counter from 07:45. Tilly has made me a card already "in case I forget", which I
                think is aimed at her father.
                """
            )
        ),
        a(
            w(
                r"""
                96 on one day is more than four times your launch Saturday, and at six per quarter-hour
                the slots will be nearly full all morning, so the cap is doing its job. Tell Priya and
                Bea that the bags with names on are the secret.

                Tilly's card strategy is excellent. I hope Saturday goes smoothly and the server doesn't
                notice a thing.
                """
            )
        ),
    ],
)

S10 = Session(
    "2026-03-30T19:40:00Z",
    [
        u(
            w(
                r"""
                Something's wrong with the slots and I think it's the clocks. They went forward on Sunday
                and today Priya noticed that Wednesday's 09:00 slot has 8 orders in it, and the limit is
                six. Then I looked at this Saturday and the 07:30 slot, the first one since we started
                opening at 07:30 on Saturdays for the dog walkers, has 9. Before Sunday nothing was ever
                over six, I'd have heard about it from Priya.

                The cron report came at 12:05 on the dot today, so that bit's fine.
                """
            ),
            key="ku-sat-new",
        ),
        a(
            w(
                r"""
                You're right that it's the clocks going forward, and it's a bug in my code that winter was hiding.

                **What's going on.** Django stores every time in **UTC** (the world's reference clock,
                the same as UK winter time) and hands it back in UTC unless told to convert. In
                `taken_per_slot` I counted orders by `order.pickup_at.time()`, which is the *UTC* time of
                day. All winter UTC and UK time were the same, so it worked. Since Sunday, UK time is UTC
                plus one hour: an order for 09:00 is stored as 08:00 UTC, so it was counted against the
                08:00 slot, and the 09:00 slot looked emptier than it was. The 07:30 Saturday slot is
                counted under 06:30, a slot that doesn't exist, so it looked completely empty and just
                kept accepting people.

                **The fix**, in `orders/slots.py`, convert to UK time before taking the time of day:

                ```python
                def taken_per_slot(day):
                    # How many live orders already sit in each slot on `day`, by UK clock time.
                    recent = timezone.now() - PENDING_HOLD
                    orders = Order.objects.filter(pickup_at__date=day).filter(
                        Q(status__in=[Order.Status.PAID, Order.Status.COLLECTED])
                        | Q(status=Order.Status.PENDING, created__gte=recent)
                    )
                    return Counter(timezone.localtime(order.pickup_at).time() for order in orders)
                ```

                `timezone.localtime` converts to your `TIME_ZONE`, Europe/London, whatever the season.
                The `pickup_at__date=day` filter was already fine, because Django converts for date
                filters by itself. The bake sheet was fine too (it already used `localtime`), and the
                confirmation email's time is fine because templates convert automatically. The one other
                place that could slip is the email *subject*, which is built in Python; in
                `orders/emails.py`:

                ```python
                from django.utils import timezone


                def send_confirmation(order):
                    body = render_to_string("orders/email_confirmation.txt", {"order": order})
                    when = timezone.localtime(order.pickup_at)
                    send_mail(
                        subject=f"Your order for {when:%A %d %B}",
                        message=body,
                        from_email=None,
                        recipient_list=[order.email],
                    )
                ```

                **So it can't come back**, a test that pretends it's summer. Create `orders/tests.py`:

                ```python
                from datetime import date, datetime, time

                from django.test import TestCase
                from django.utils import timezone

                from .models import OpeningHours, Order
                from .slots import taken_per_slot


                class SummerTimeSlots(TestCase):
                    def test_order_counts_in_its_uk_slot(self):
                        OpeningHours.objects.create(weekday=5, opens=time(7, 30), closes=time(13, 0))
                        day = date(2026, 4, 4)  # a Saturday in British Summer Time
                        pickup = timezone.make_aware(datetime.combine(day, time(7, 30)))
                        Order.objects.create(
                            customer_name="Test", email="t@example.com", pickup_at=pickup, status="paid"
                        )
                        self.assertEqual(taken_per_slot(day)[time(7, 30)], 1)
                ```

                Run it **in the project folder with `(.venv)` on**: `python manage.py test orders`. It
                should fail before the fix and pass after. Then push, and on the server in
                `/home/ros/bakery`: `git pull` and `sudo systemctl restart bakery`.
                """
            ),
            key="code-tz",
        ),
        u(
            w(
                r"""
                Test failed, fixed, test passed, which was weirdly satisfying. It's on the server.

                But what about the orders already in there? Some slots have too many people now. Do I
                need to move people?
                """
            )
        ),
        a(
            w(
                r"""
                First let's see how bad it is. On the server, **in `/home/ros/bakery`**, open Django's
                shell (a prompt where you can type Python that talks to your site's data):

                ```
                .venv/bin/python manage.py shell
                ```

                and paste this in one go:

                ```python
                from collections import Counter
                from datetime import timedelta
                from django.conf import settings
                from django.utils import timezone
                from orders.models import Order

                today = timezone.localdate()
                live = Order.objects.filter(
                    status__in=["paid", "collected"],
                    pickup_at__date__gte=today,
                    pickup_at__date__lte=today + timedelta(days=14),
                )
                counts = Counter(timezone.localtime(o.pickup_at).strftime("%Y-%m-%d %H:%M") for o in live)
                for slot, n in sorted(counts.items()):
                    if n > settings.MAX_ORDERS_PER_SLOT:
                        print(slot, n)
                ```

                Press Enter twice at the end; type `exit()` to leave.

                It lists each overfull slot and how many orders it holds. Moving paid customers is
                awkward, and usually not worth it: being two or three over in one quarter-hour means a
                short queue, not a disaster. I'd only contact people if a slot is wildly over.
                """
            )
        ),
        u(
            w(
                r"""
                ```
                2026-04-01 09:00 8
                2026-04-02 08:30 7
                2026-04-04 07:30 9
                2026-04-04 08:00 8
                ```

                Hmm, Saturday the 4th is Easter Saturday as well. I'll leave them. Priya and Bea can cope
                with a queue of nine, Bea says she'll "manage the crowd".
                """
            )
        ),
        a(
            w(
                r"""
                That's manageable: 32 orders in four slots, eight more than the cap allows. I agree with
                leaving them. A tip for Saturday: have those 07:30 and 08:00 bags packed and lined up in
                pickup order on Friday evening, so the first half-hour is just handing out.

                From now on the slots fill correctly, so nothing new can go over.
                """
            )
        ),
        u(
            w(
                r"""
                Now the important thing: Easter. Hot cross buns on Good Friday and Easter Saturday, the
                3rd and 4th. Packs of four, £6.00 a pack. Josh can do 200 packs a day, absolute maximum,
                and I don't want to sell pack 201. Last year we ran out by 10:00 on the Friday and people
                were cross.
                """
            ),
            key="mt-prod-3",
        ),
        a(
            w(
                r"""
                We need a per-day limit for a product: "no more than N sold for collection on any one
                day". We count what's already ordered for that day and refuse a basket that would go
                over.

                In `models.py`, on `Product`:

                ```python
                    daily_limit = models.PositiveIntegerField(
                        null=True, blank=True, help_text="Most we can sell for collection on one day. Empty = no limit."
                    )

                    def sold_on(self, day):
                        from django.db.models import Q, Sum
                        from django.utils import timezone

                        recent = timezone.now() - timedelta(minutes=30)
                        live = Q(order__status__in=["paid", "collected"]) | Q(
                            order__status="pending", order__created__gte=recent
                        )
                        items = self.orderitem_set.filter(live, order__pickup_at__date=day)
                        total = items.aggregate(n=Sum("quantity"))["n"]
                        return total or 0

                    def left_on(self, day):
                        if self.daily_limit is None:
                            return None
                        return max(self.daily_limit - self.sold_on(day), 0)
                ```

                (add `from datetime import timedelta` at the top of `models.py`). Unpaid orders started
                in the last 30 minutes count, the same hold as the slots, so two people can't both buy
                the last packs.

                In `forms.py`, show what's left in the label, hide sold-out products, and refuse too
                many. Replace the product loop in `__init__`:

                ```python
                        self.products = []
                        for product in Product.objects.filter(active=True):
                            if not product.available_on(day):
                                continue
                            left = product.left_on(day)
                            if left == 0:
                                continue
                            self.products.append(product)
                            label = f"{product.name} ({product.price_display})"
                            if left is not None and left <= 30:
                                label += f" – only {left} left"
                            self.fields[f"qty_{product.pk}"] = forms.IntegerField(
                                label=label, min_value=0, max_value=min(20, left) if left is not None else 20,
                                initial=0, required=False,
                            )
                ```

                and in `clean`, after building `lines`:

                ```python
                        for product, qty in lines:
                            left = product.left_on(self.day)
                            if left is not None and qty > left:
                                raise forms.ValidationError(
                                    f"Sorry, we only have {left} {product.name} left for that day."
                                )
                ```

                The check in `clean` matters because the label can be out of date by the time someone
                presses the button.

                In the admin: add "Hot cross buns (pack of 4)", price `600`, `available_weekdays` `4,5`,
                from 2026-04-03 until 2026-04-04, daily limit `200`. `makemigrations` and `migrate` as
                usual.
                """
            ),
            key="code-limit",
        ),
        u(
            w(
                r"""
                Tested on the laptop with the limit set to 5: ordered 3, then tried 3 more and got "Sorry,
                we only have 2 Hot cross buns (pack of 4) left for that day." Then the product
                disappeared when I bought the last 2. Set to 200 on the server.

                Josh said "two hundred packs is eight hundred buns, Ros" in a very flat voice.
                """
            )
        ),
        a(
            w(
                r"""
                Working exactly as it should. And Josh is right: eight hundred buns a day for two days
                is a serious amount of shaping, plus whatever walk-in customers want on top. It might be
                worth deciding now whether the 200 includes the counter or is only for pre-orders; at the
                moment the site only knows about pre-orders, so if you want to keep some back for the
                shop, set the limit lower (say 150) and let the rest go over the counter.
                """
            )
        ),
        u(
            "150 online it is, 50 for the counter. Tilly is doing an egg hunt in the garden on Sunday for her "
            "cousins, so I'll have flour in my hair and chocolate in my pockets."
        ),
        a(
            "A very Easter combination. I hope the buns sell out exactly on the last pack and not a minute "
            "before 10:00."
        ),
    ],
)

S11 = Session(
    "2026-04-09T20:10:00Z",
    [
        u(
            w(
                r"""
                Easter report: all 300 packs of hot cross buns went online by the Wednesday before, and
                the 50 a day at the counter were gone by 09:15 both days. No one shouted at me. The
                07:30 queue on Saturday was nine people long and Bea "managed the crowd" by giving the
                dogs biscuits.

                Now the boring bit. Our accountant, Gillian Moss, wants a list of every order for January
                to March, with dates and totals, for the quarter. She does our books from a little office
                above the opticians and is terrifying in the nicest way. She'd like it by the 20th.
                """
            ),
            key="sf-accountant",
        ),
        a(
            w(
                r"""
                Congratulations on Easter. Selling out a week ahead is the best kind of problem.

                For Gillian, a **CSV** file is the thing: a plain text table with commas between the
                columns, which LibreOffice Calc opens as a spreadsheet and which any accountant's
                software can import. One row per paid order, with the items written out, and a total at
                the bottom.

                `orders/management/commands/export_orders_csv.py`:

                ```python
                import csv
                from datetime import date

                from django.core.management.base import BaseCommand
                from django.utils import timezone

                from orders.models import Order


                class Command(BaseCommand):
                    help = "Write paid orders between two dates (inclusive, by pickup day) to a CSV file."

                    def add_arguments(self, parser):
                        parser.add_argument("start", help="first day, YYYY-MM-DD")
                        parser.add_argument("end", help="last day, YYYY-MM-DD")
                        parser.add_argument("--out", default="orders.csv")

                    def handle(self, *args, **options):
                        start = date.fromisoformat(options["start"])
                        end = date.fromisoformat(options["end"])
                        orders = (
                            Order.objects.filter(
                                pickup_at__date__gte=start,
                                pickup_at__date__lte=end,
                                status__in=[Order.Status.PAID, Order.Status.COLLECTED],
                            )
                            .prefetch_related("items__product")
                            .order_by("pickup_at")
                        )
                        grand_total = 0
                        with open(options["out"], "w", newline="", encoding="utf-8") as f:
                            writer = csv.writer(f)
                            writer.writerow(["Order", "Paid on", "Pickup day", "Customer", "Items", "Total (£)"])
                            for order in orders:
                                items = "; ".join(f"{i.quantity} x {i.product.name}" for i in order.items.all())
                                total = order.total_pence
                                grand_total += total
                                writer.writerow([
                                    order.pk,
                                    timezone.localtime(order.created).strftime("%Y-%m-%d"),
                                    timezone.localtime(order.pickup_at).strftime("%Y-%m-%d"),
                                    order.customer_name,
                                    items,
                                    f"{total / 100:.2f}",
                                ])
                            writer.writerow([])
                            writer.writerow(["", "", "", "", "Total", f"{grand_total / 100:.2f}"])
                        self.stdout.write(
                            f"Wrote {orders.count()} orders, £{grand_total / 100:.2f}, to {options['out']}"
                        )
                ```

                Run on the server, **in `/home/ros/bakery`**:

                ```
                .venv/bin/python manage.py export_orders_csv 2026-01-01 2026-03-31 --out q1-orders.csv
                ```

                Then copy it to the laptop, **in the folder where you want the file** (your Documents,
                say):

                ```
                scp ros@YOUR.SERVER.IP:/home/ros/bakery/q1-orders.csv .
                ```

                Two things Gillian will probably ask about, so you can get ahead of her:

                1. **Stripe fees and refunds.** The CSV shows what customers paid. What reached your
                   bank is less, by Stripe's fees and the odd refund. Stripe's own dashboard has a
                   **Payouts** report (Reports → Payouts reconciliation) for the same dates; download
                   that as CSV too and send both.
                2. **The counter.** This is online orders only; the till covers everything else.
                """
            ),
            key="rc-csv",
        ),
        u(
            w(
                r"""
                Wrote 1,214 orders, £15,903.40. That's quite a number to see written down. Opened fine in
                LibreOffice.

                Gillian's first question back (within the hour!) was about Bramble Café: they pay us
                monthly and she can never match their transfers to anything. They're on £1.40 a baguette,
                wholesale, 20 every Thursday. Could the site make me a proper monthly invoice for them
                from the standing order? I currently write it by hand in a duplicate book.
                """
            ),
            key="mt-cafe-2",
        ),
        a(
            w(
                r"""
                Yes: the standing order already knows who, what and which weekday, so we only need a
                price and a way to count the weekdays in a month (skipping closed days).

                On `StandingOrder` in `models.py`:

                ```python
                    unit_price_pence = models.PositiveIntegerField(
                        null=True, blank=True, help_text="Wholesale price each, in pence. Empty = not invoiced."
                    )
                ```

                A new command, `orders/management/commands/monthly_invoice.py`:

                ```python
                import calendar
                from datetime import date

                from django.core.management.base import BaseCommand

                from orders.models import ClosedDay, StandingOrder


                class Command(BaseCommand):
                    help = "Print a monthly invoice for one standing-order customer."

                    def add_arguments(self, parser):
                        parser.add_argument("customer")
                        parser.add_argument("month", help="YYYY-MM")
                        parser.add_argument("--number", required=True, help="invoice number, e.g. WSB-2026-004")

                    def handle(self, *args, **options):
                        year, month = (int(x) for x in options["month"].split("-"))
                        days_in_month = calendar.monthrange(year, month)[1]
                        closed = set(
                            ClosedDay.objects.filter(day__year=year, day__month=month).values_list("day", flat=True)
                        )
                        rows = []
                        total = 0
                        standing = StandingOrder.objects.filter(
                            customer=options["customer"], unit_price_pence__isnull=False
                        )
                        for so in standing:
                            for d in range(1, days_in_month + 1):
                                day = date(year, month, d)
                                if day.weekday() != so.weekday or day in closed:
                                    continue
                                line = so.quantity * so.unit_price_pence
                                total += line
                                rows.append(
                                    f"{day:%Y-%m-%d}  {so.quantity:>3} x {so.product.name:<20} £{line / 100:>7.2f}"
                                )
                        lines = [
                            "WREN STREET BAKERY",
                            "14 Wren Street, Frome",
                            "",
                            f"INVOICE {options['number']}",
                            f"To: {options['customer']}",
                            f"For: {calendar.month_name[month]} {year}",
                            "",
                            *rows,
                            "",
                            f"TOTAL DUE: £{total / 100:.2f}",
                            "Payment by bank transfer within 14 days, quoting the invoice number.",
                        ]
                        self.stdout.write("\n".join(lines))
                ```

                In the admin, set Bramble Café's standing order price to `140`, leave Marek's mum's
                empty (so she's never invoiced, as promised). Then, **in `/home/ros/bakery`** on the
                server:

                ```
                .venv/bin/python manage.py monthly_invoice "Bramble Café" 2026-03 --number WSB-2026-003
                ```

                March had four Thursdays, so it should come to 4 × 20 × £1.40 = £112.00. The invoice
                number quoted on their transfer is what will let Gillian match them up.
                """
            )
        ),
        u(
            w(
                r"""
                £112.00, and it looks better than my duplicate book. I'll email it to Bramble with the
                number.

                Now something for me rather than Josh. Could I have the bake list, but as a weekly thing
                looking back? Every Monday, what we sold each day the week before, product by product,
                and the total money. I want to see whether the focaccia is worth the faff, and whether
                Wednesdays are as dead as they feel.
                """
            )
        ),
        a(
            w(
                r"""
                We can reuse the daily report's counting for each day of the week and add up the money.
                `orders/management/commands/send_weekly_summary.py`:

                ```python
                from collections import defaultdict
                from datetime import timedelta

                from django.core.mail import send_mail
                from django.core.management.base import BaseCommand
                from django.db.models import F, Sum
                from django.utils import timezone

                from orders.models import Order, OrderItem
                from orders.reports import LIVE, build_production_report


                class Command(BaseCommand):
                    help = "Email last week's sales by day and product (Monday to Saturday)."

                    def handle(self, *args, **options):
                        today = timezone.localdate()
                        monday = today - timedelta(days=today.weekday() + 7)
                        days = [monday + timedelta(days=n) for n in range(6)]

                        per_product = defaultdict(lambda: [0] * len(days))
                        for i, day in enumerate(days):
                            for name, qty in build_production_report(day).totals:
                                per_product[name][i] += qty

                        money = (
                            OrderItem.objects.filter(
                                order__status__in=LIVE,
                                order__pickup_at__date__gte=days[0],
                                order__pickup_at__date__lte=days[-1],
                            ).aggregate(p=Sum(F("quantity") * F("unit_price_pence")))["p"]
                            or 0
                        )
                        orders = Order.objects.filter(
                            status__in=LIVE, pickup_at__date__gte=days[0], pickup_at__date__lte=days[-1]
                        ).count()

                        header = f"{'':<28}" + "".join(f"{d:%a}".rjust(6) for d in days) + "  Total"
                        lines = [f"WEEK OF {monday:%Y-%m-%d}", "", header]
                        for name, counts in sorted(per_product.items()):
                            lines.append(f"{name:<28}" + "".join(f"{c:>6}" for c in counts) + f"{sum(counts):>7}")
                        lines += ["", f"Online orders: {orders}", f"Online takings: £{money / 100:.2f}"]

                        send_mail(
                            subject=f"Week of {monday:%Y-%m-%d}: £{money / 100:.2f} online",
                            message="\n".join(lines),
                            from_email=None,
                            recipient_list=["ros@wrenstreetbakery.co.uk"],
                        )
                ```

                Note that the per-product counts include standing orders (because the daily report does,
                and Josh bakes them), while the money is online orders only.

                Add to the crontab (`crontab -e`, any folder), under the others:

                ```
                0  7   *   *   1    /home/ros/bakery/run.sh send_weekly_summary
                ```

                That's 07:00 every Monday (the `1` in the last time column is Monday). To see it now,
                run the command once by hand in `/home/ros/bakery`.
                """
            ),
            key="rc-weekly",
        ),
        u(
            w(
                r"""
                Here's what came (Easter week, so a bit silly):

                ```
                WEEK OF 2026-03-30
                                               Mon   Tue   Wed   Thu   Fri   Sat  Total
                Baguette                         0     0    14    31    22    48    115
                Cardamom bun                     0     0     0     0     0     0      0
                Cinnamon bun                     0     0    12    20    44    96    172
                Country loaf                     0     0     9    11    15    30     65
                Focaccia (rosemary and sea salt) 0     0     0     0     0    18     18
                Hot cross buns (pack of 4)       0     0     0     0   150   150    300
                Seeded rye                       0     0     8    12    19    33     72
                White sourdough                  0     0    21    25    47    88    181

                Online orders: 412
                Online takings: £3,188.70
                ```
                """
            )
        ),
        a(
            w(
                r"""
                A few things jump out, with the caveat that Easter week is the least normal week of the
                year:

                | Question | What the week says |
                |---|---|
                | Are Wednesdays dead? | Online, fairly: Wednesday had 21 of the week's 181 sourdoughs and 14 of
                its 115 baguettes, the quietest day by some way. |
                | Is focaccia worth it? | 18 slabs at £3.50 is £63 of takings on one day. Whether that's worth the
                faff depends on how long it takes Josh, which the site can't tell you. |
                | What's the workhorse? | White sourdough: 181, more than rye and country loaf together. |
                | Cardamom buns | 0, because they were only on for Valentine's. The weekly list shows everything
                that's ever been sold; it could hide zero rows. |

                I'd give it three or four ordinary weeks before deciding anything about Wednesdays or
                focaccia. If you want, the summary could also compare with the same week last year once
                there is a last year.

                Shall I make the summary leave out products that sold nothing all week?
                """
            )
        ),
        u(
            "Yes, leave out the zeros. And Thursday's 31 baguettes includes Bramble's 20, which makes Thursday a "
            "lot less impressive."
        ),
        a(
            w(
                r"""
                Good catch, it does: Bramble's 20 are inside Thursday's 31, so customers ordered 11. In
                `send_weekly_summary.py`, change the loop that writes the products to skip empty rows:

                ```python
                        for name, counts in sorted(per_product.items()):
                            if not any(counts):
                                continue
                            lines.append(f"{name:<28}" + "".join(f"{c:>6}" for c in counts) + f"{sum(counts):>7}")
                ```

                And if you'd like the café kept out of the customer picture, the cleanest way is a second
                block under the table listing standing orders separately; say the word and I'll add it.
                """
            )
        ),
        u(
            w(
                r"""
                Not now. Other news: the van passed its MOT at the second go, so Marek is human again.
                Tilly turns ten in May and wants a party "with a bread theme", which I think is her
                trolling me.

                Also, Caz asked me which version of Django I'm on and whether I need to worry about
                updates. Do I?
                """
            )
        ),
        a(
            w(
                r"""
                A bread-themed tenth birthday is either trolling or a future head baker; possibly both.

                You're on **Django 5.2**, which is a **long-term support** release: the Django team
                promises security fixes for it until April 2028. So no big upgrade is needed for two
                years, but you should take the small security updates when they come out (5.2.1,
                5.2.2 and so on). They're designed to change nothing except the fix.

                Every month or so, on the laptop, **in the project folder with `(.venv)` on**:

                1. `pip install -U "django>=5.2,<5.3" stripe python-dotenv`
                2. `python manage.py test orders`, which runs the summer-time test, at least.
                3. Click through an order in test mode.
                4. `pip freeze > requirements.txt`, then `git commit -am "Update packages"` and
                   `git push`.

                Then on the server, **in `/home/ros/bakery`**:

                5. `git pull`
                6. `.venv/bin/pip install -r requirements.txt`
                7. `sudo systemctl restart bakery`

                And ask Tomasz to do `sudo apt update && sudo apt upgrade` on the server now and then,
                or turn on Ubuntu's automatic security updates, which he'll know how to do.
                """
            )
        ),
        u("Printed, pinned up by the laptop. Caz says I'm more organised than her clients now."),
    ],
)

S12 = Session(
    "2026-04-22T20:30:00Z",
    [
        u(
            w(
                r"""
                Flour news. Shipton wrote again: another rise from June, on top of March's. That was the
                last straw, so we've switched to Wessex Mill for the white and the wholemeal. Their
                organic white is £28.40 a 25 kg sack and the wholemeal £27.10, delivered on Tuesdays. Josh
                did a test bake with it last week and says the dough's a touch thirstier but the loaves
                are lovely. We're keeping Shipton for the rye for now because Wessex don't do a dark rye.

                What do I change in the costing bit?
                """
            ),
            key="ku-supplier-new",
        ),
        a(
            w(
                r"""
                Sounds like a good swap, and keeping Shipton for rye is sensible. In the admin:

                1. **Suppliers → Add**: "Wessex Mill", with their phone number and "delivers Tuesdays" in
                   the notes.
                2. **Ingredients → Organic white flour**: change Supplier to Wessex Mill and pack price
                   to `2840`. Save.
                3. **Ingredients → Organic wholemeal**: Wessex Mill, `2710`. Save.
                4. Leave the rye ingredient on Shipton Mill.

                I'd edit the existing ingredients rather than adding new ones, because the recipes point
                at them: change the flour and every product's cost follows. (The `updated` column will
                show today's date, which is a handy "when did I last check this price".)

                What it does to the white sourdough, per loaf:

                | Ingredient | Grams | Was (Shipton, March) | Now (Wessex) |
                |---|---|---|---|
                | Organic white flour | 550 | £0.686 | £0.625 |
                | Organic wholemeal | 50 | £0.060 | £0.054 |
                | Salt | 12 | £0.018 | £0.018 |
                | **Total** | | **£0.76** | **£0.70** |

                At £4.60 that takes the ingredient share from about 17% to 15%. Josh's "thirstier"
                dough is worth a thought too: if the new flour takes more water, the loaves might come
                out slightly heavier at the same flour weight, or he might scale the flour down a little;
                either way, it's a few grams and it won't move the costs much.

                Rye, seeded rye and anything with Shipton's dark rye stay on the old prices until their
                June rise arrives; when it does, it's one number in the Ingredients list.
                """
            )
        ),
        u(
            w(
                r"""
                Done, the list says 70 for the sourdough. Lovely.

                Staff change. Priya starts her maternity leave on Friday, 2026-04-24, the baby's due at the
                end of May. Hannah Whitlock is covering her mornings; she's worked at the Co-op for years
                and is unflappable. From Friday Hannah's in charge of refunds and the order desk. She needs
                a login, and the Stripe thing. And Priya's login should, I suppose, be switched off while
                she's away? I don't want to be rude about it.
                """
            ),
            key="ku-refund-new",
        ),
        a(
            w(
                r"""
                Congratulations to Priya. Here's the handover, numbered.

                **Django admin** (logged in as you):

                1. Users → Add user → username `hannah`, a temporary password. On the next page tick
                   **Staff status** (remember the iPad lesson), add her to the **Counter** group, fill in
                   her name and email. Save.
                2. Ask her to log in once on the counter iPad and change her password (top right).
                3. Open `priya` and **untick "Active"** rather than deleting her. Her account, and the
                   record of what she did, stays exactly as it is and can be switched back on with one
                   tick when she returns. It's the normal thing to do for anyone on leave and nobody
                   takes it as rude; she'd likely rather not get logged-in notifications while she's
                   feeding a newborn at 03:00.

                **Stripe** (Settings → Team and security):

                4. Add member → Hannah's email → role **Support specialist**, the same as Priya had. She
                   sets up her two-step login when she accepts.
                5. For Priya, Stripe has no pause button; remove her from the team for now, and invite her
                   again when she's back. Nothing she did is lost; payments and refunds she made keep her
                   name in their history.

                **Everything else:**

                6. The staff email for double payments goes to `ADMINS`, which is just you. If you'd like
                   Hannah to get those too, add her to `ADMINS` in settings:
                   ```python
                   ADMINS = [("Ros", "ros@wrenstreetbakery.co.uk"), ("Hannah", "hannah@wrenstreetbakery.co.uk")]
                   ```
                7. The bake list goes to Josh and you (`REPORT_RECIPIENTS`); Hannah probably doesn't need
                   it, since she can open the sheet from the admin.

                A short "how we do refunds" note for Hannah, for pinning by the iPad:

                ```
                REFUNDS (Stripe)
                1. Stripe → Payments → find the customer by email or amount.
                2. Click the payment → Refund → full amount unless agreed otherwise.
                3. Reason: Duplicate / Requested by customer.
                4. In the bakery admin, open their order and set Status to Cancelled
                   if they're not collecting, so Josh doesn't bake it.
                5. Email the customer: refund on its way, 5–10 working days.
                ```
                """
            )
        ),
        u(
            w(
                r"""
                Hannah's in, Priya's paused, and Priya cried a bit at the note I stuck on the admin
                computer saying "Back soon P". We got her a pram blanket and Josh baked her a loaf with a P
                slashed on top, which made her cry more.
                """
            )
        ),
        a("That loaf is a lovely touch from Josh. I hope the last weeks before the baby go gently for her."),
        u(
            w(
                r"""
                Hannah's first request, on day one: marking orders as collected. At the moment she opens
                each order, changes the drop-down, presses Save, goes back. On a Saturday morning that's
                forty times. Can she tick a few and do them at once?
                """
            )
        ),
        a(
            w(
                r"""
                Yes, with an **admin action**: a command that appears in the "Action" drop-down above the
                list of orders and applies to every order you've ticked. In `orders/admin.py`, in
                `OrderAdmin`:

                ```python
                @admin.register(Order)
                class OrderAdmin(admin.ModelAdmin):
                    list_display = ["customer_name", "pickup_at", "status", "created"]
                    list_filter = ["status", "pickup_at"]
                    search_fields = ["customer_name", "email", "phone"]
                    inlines = [OrderItemInline]
                    actions = ["mark_collected"]

                    @admin.action(description="Mark selected orders as collected")
                    def mark_collected(self, request, queryset):
                        count = queryset.filter(status=Order.Status.PAID).update(status=Order.Status.COLLECTED)
                        self.message_user(request, f"{count} orders marked as collected.")
                ```

                Only paid orders change, so a cancelled one ticked by mistake stays cancelled. For
                Hannah the routine becomes: filter the list to today (the "Pickup at" filter on the right
                has "Today"), tick the ones that have gone, choose the action, press Go.

                The Counter group already has "Can change order", which is all the action needs. Push,
                `git pull` and restart on the server as usual.
                """
            )
        ),
        u(
            w(
                r"""
                Marek, being Marek, wants to know exactly what the website costs us now, per month, all
                in, "including the Germans". Can you add it up? We were on PythonAnywhere for a bit but
                that's cancelled now.
                """
            )
        ),
        a(
            w(
                r"""
                Here's the monthly picture as things stand:

                | Item | What you pay | Per month (approx.) |
                |---|---|---|
                | Hetzner CX22 server | €4.51/month | £3.90 |
                | Hetzner backups | 20% of the server | £0.80 |
                | Domain (123-reg) | £11.99/year | £1.00 |
                | Brevo email | free plan | £0.00 |
                | GitHub | free private repository | £0.00 |
                | **Fixed costs** | | **about £5.70** |
                | Stripe fees | 1.5% + 20p per order | varies with sales |

                The Stripe line is the big one. For January to March, from Gillian's export: 1,214
                orders, £15,903.40 taken. 1.5% of that is £238.55, plus 1,214 × 20p = £242.80, so about
                **£481 for the quarter, roughly £160 a month**, around 3% of online takings. That's the
                cost of being paid in advance with no no-shows; set against the loaves you used to bake
                for people who never came, it's likely cheaper than the paper book was.

                (Euros to pounds at roughly 0.86; it wobbles a little month to month.)

                So for Marek: about £6 a month to keep the site running, plus about 3% of whatever goes
                through it. And, for the record, the £3,500 quote from January would have paid for
                about fifty years of hosting.
                """
            )
        ),
        u(
            w(
                r"""
                He's gone quiet, which means he's impressed.

                Tilly request, and she's asked me to type it "exactly": "please make the admin say
                BREADBOOK at the top". It currently says Django administration. Is that easy? She'll be
                unbearable if it works.
                """
            )
        ),
        a(
            w(
                r"""
                Very easy, and I'm afraid she will be. In `orders/admin.py`, add these three lines just
                below the imports:

                ```python
                admin.site.site_header = "Breadbook"
                admin.site.site_title = "Breadbook"
                admin.site.index_title = "Wren Street Bakery back office"
                ```

                `site_header` is the big title at the top of every admin page, `site_title` is what
                shows on the browser tab, and `index_title` is the heading on the admin's front page.
                Push, then on the server **in `/home/ros/bakery`**: `git pull` and
                `sudo systemctl restart bakery`.

                Customers never see the admin, so this is strictly for the staff, and for Tilly.
                """
            )
        ),
        u(
            w(
                r"""
                It says BREADBOOK. She made me take a photo of the screen and send it to her grandma.

                I think that's us for a while. The site's doing what I wanted in January. Josh has his
                sheet, Priya (now Hannah) has the refunds, Gillian has her CSV, Marek has his sums.
                Summer's the market in the van, and I'll probably be back about that.
                """
            )
        ),
        a(
            w(
                r"""
                It's been a good three months' work. A quick record of where things live, for when you
                come back to it:

                - **Code**: GitHub `bakery`, on your laptop in `C:\Users\Ros\bakery`, on the server in
                  `/home/ros/bakery`.
                - **Server**: Hetzner CX22, Ubuntu 24.04, gunicorn on 127.0.0.1:8001 behind nginx,
                  `sudo systemctl restart bakery` after every `git pull`.
                - **Scheduled jobs** (`crontab -e`, UK time): bake list 12:05 daily, unpaid orders
                  cancelled 03:00, backup 02:30, weekly summary Monday 07:00. Log in
                  `/home/ros/cron.log`.
                - **Backups**: `/home/ros/backups`, 30 days, plus Hetzner's daily snapshot.
                - **In the admin**: products, prices and limits, opening hours, closed days, standing
                  orders, ingredients and suppliers, staff.
                - **Commands**: `send_production_report`, `send_weekly_summary`, `export_orders_csv`,
                  `monthly_invoice`, `expire_unpaid`.

                For the market: when you're ready, the question will be whether you want people to
                pre-order for collection at the van, which is mostly a "place" on the order form next to
                the time. Good luck with the bread-themed party.
                """
            )
        ),
    ],
)

S13 = Session(
    "2026-05-13T20:25:00Z",
    [
        u(
            w(
                r"""
                Back, as threatened. Two bits of news first: Priya had her baby on Saturday, a girl called
                Nell, 3.4 kg, both well. Josh has already asked when Nell can start on the counter.

                And the market. We've got a pitch at the Frome Independent, the big market on the first
                Sunday of every month, in the van on Cheap Street. First one is 2026-06-07. What I'd love
                is for people to be able to pre-order for collection at the van, so they don't have to
                queue behind the tourists, and so we know how much to bring. The van would be there 10
                till 2. Everything else about the site stays as it is, the shop is the shop.
                """
            )
        ),
        a(
            w(
                r"""
                Congratulations to Priya, and welcome to Nell. 3.4 kg is a proper loaf.

                The market is a nice extension because most of what we need is already there: slots, a
                cap per slot, closed days. What's new is that an order now has a **place** as well as a
                time, and that some days are special one-off days with their own hours rather than the
                usual weekly hours.

                Two new models in `orders/models.py`:

                ```python
                class PickupPlace(models.Model):
                    name = models.CharField(max_length=80)
                    address = models.CharField(max_length=200)
                    max_per_slot = models.PositiveSmallIntegerField(default=6)

                    def __str__(self):
                        return self.name


                class MarketDay(models.Model):
                    day = models.DateField(unique=True)
                    place = models.ForeignKey(PickupPlace, on_delete=models.PROTECT)
                    opens = models.TimeField()
                    closes = models.TimeField()

                    class Meta:
                        ordering = ["day"]

                    def __str__(self):
                        return f"{self.day:%Y-%m-%d} at {self.place} {self.opens:%H:%M}–{self.closes:%H:%M}"
                ```

                and on `Order`:

                ```python
                    place = models.ForeignKey("PickupPlace", on_delete=models.PROTECT, default=1)
                ```

                The idea is: on a normal day the place is the shop and the hours come from Opening
                hours; on a date listed as a market day, the place is the van and the hours come from the
                market day itself. Because the market is on Sundays, when the shop is shut, the two
                never clash.

                In `orders/slots.py`, a small function decides which applies to a date, and `slot_times`
                uses it:

                ```python
                def pickup_plan(day):
                    # (place, opens, closes) for `day`, or None if there are no pickups that day.
                    if ClosedDay.objects.filter(day=day).exists():
                        return None
                    market = MarketDay.objects.filter(day=day).select_related("place").first()
                    if market:
                        return market.place, market.opens, market.closes
                    hours = OpeningHours.objects.filter(weekday=day.weekday(), pickups=True).first()
                    if hours is None:
                        return None
                    return PickupPlace.objects.get(pk=1), hours.opens, hours.closes


                def slot_times(day):
                    plan = pickup_plan(day)
                    if plan is None:
                        return []
                    _place, opens, closes = plan
                    step = timedelta(minutes=settings.SLOT_MINUTES)
                    current = datetime.combine(day, opens)
                    last = datetime.combine(day, closes) - step
                    times = []
                    while current <= last:
                        times.append(current.time())
                        current += step
                    return times
                ```

                And `slots_for_day` should use the place's own cap rather than the single setting:

                ```python
                def slots_for_day(day, now=None):
                    if not ordering_open_for(day, now):
                        return []
                    plan = pickup_plan(day)
                    if plan is None:
                        return []
                    place = plan[0]
                    taken = taken_per_slot(day)
                    return [
                        timezone.make_aware(datetime.combine(day, start))
                        for start in slot_times(day)
                        if taken[start] < place.max_per_slot
                    ]
                ```

                For the shop, set `max_per_slot` to 6 so nothing changes there. `MAX_ORDERS_PER_SLOT` in
                settings becomes unused once this is in; leave it for now, we can tidy it later.

                Before running `makemigrations`, tell me: how many people can the van hand orders to in a
                quarter-hour, and will you take everything to the market or only some of the range?
                """
            )
        ),
        u(
            w(
                r"""
                Four per slot at the van, it's only Marek and Bea and the van hatch is narrow. Only the
                loaves and the focaccia go to the market as pre-orders. Buns we sell loose off the
                counter at the van, they go in ten minutes anyway, and baguettes go soggy in the van by
                lunchtime.
                """
            )
        ),
        a(
            w(
                r"""
                Four per slot it is, set on the van's place in the admin. For the range, a tick box on
                each product saying whether it can be pre-ordered for the market:

                ```python
                    at_market = models.BooleanField(
                        default=False, help_text="Can be pre-ordered for collection at the market van"
                    )
                ```

                and `Product.available_on` learns about market days, so the form needs no change at all:

                ```python
                    def available_on(self, day):
                        from .models import MarketDay  # same file; avoids ordering trouble

                        if MarketDay.objects.filter(day=day).exists() and not self.at_market:
                            return False
                        if self.available_from and day < self.available_from:
                            return False
                        if self.available_until and day > self.available_until:
                            return False
                        if not self.available_weekdays.strip():
                            return True
                        days = {int(part) for part in self.available_weekdays.split(",") if part.strip()}
                        return day.weekday() in days
                ```

                (You can drop the `from .models import` line if `MarketDay` is defined above `Product`
                in the file; I've left it in so the order of classes doesn't matter.)

                One catch: focaccia is limited to Saturdays with `available_weekdays` = `5`, and the
                market is a Sunday, so it would be hidden. Set focaccia's weekdays to `5,6`; since the
                shop has no Sunday pickups, that only adds market Sundays.

                Tick `at_market` for white sourdough, seeded rye, country loaf and focaccia.

                In `views.py`, the order needs its place when it's created. In `order_form`, in the
                `Order.objects.create(...)` call, add:

                ```python
                            place=pickup_plan(day)[0],
                ```

                (import `pickup_plan` from `.slots`). In `choose_day.html`, label market days so nobody
                turns up at the shop on a Sunday:

                ```html
                {% for day in days %}
                  <p><a href="{% url 'order_form' day.isoformat %}">{{ day|date:"l j F" }}</a>
                  {% if day.weekday == 6 %} – at the market van, Cheap Street{% endif %}</p>
                {% endfor %}
                ```

                And the confirmation email should say where, in `email_confirmation.txt`, replacing the
                "Where:" line:

                ```
                Where: {{ order.place.name }}, {{ order.place.address }}
                ```

                Ordering for a Sunday market will close at 12:00 on Saturday, from the same cutoff
                rule. Is that early enough for Josh, given he'll be baking for both days on Saturday?
                """
            )
        ),
        u(
            w(
                r"""
                Josh says Saturday 12:00 is fine, he's baking the market loaves on Sunday at 04:00 anyway
                and the van leaves at 09:00. He wants the market on the sheet as its own section though,
                "so I don't bag a shop order into the van".
                """
            )
        ),
        a(
            w(
                r"""
                Sensible. We'll keep one sheet per day (since a day is either a shop day or a market day)
                but print the place as a big heading at the top, and group pickups by place so that if
                you ever do a Saturday market and a shop day together, they can't mix.

                In `reports.py`, record the place with each pickup:

                ```python
                    orders = Order.objects.filter(pickup_at__date=day, status__in=LIVE).select_related("place")
                    for order in orders.prefetch_related("items__product"):
                        lines[order.pk] = [(item.quantity, item.product.name) for item in order.items.all()]
                        when = timezone.localtime(order.pickup_at).strftime("%H:%M")
                        report.pickups.append((order.place.name, when, order.customer_name, lines[order.pk]))
                    report.pickups.sort()
                    report.places = sorted({p[0] for p in report.pickups})
                    report.order_count = len(report.pickups)
                ```

                and add `places: list = field(default_factory=list)` to `ProductionReport`. In
                `production_sheet.html`, replace the pickups section:

                ```html
                  {% for place in report.places %}
                    <h2>{{ place|upper }} – pickups</h2>
                    <table>
                      {% for where, when, customer, lines in report.pickups %}
                        {% if where == place %}
                        <tr>
                          <td class="time">{{ when }}</td>
                          <td>{{ customer }}<br>
                            {% for qty, name in lines %}{{ qty }} × {{ name }}{% if not forloop.last %},{% endif %}
                            {% endfor %}
                          </td>
                        </tr>
                        {% endif %}
                      {% endfor %}
                    </table>
                  {% endfor %}
                ```

                `report_as_text`, used by the email, needs the same change, since each pickup now has
                four parts:

                ```python
                    for place, when, customer, lines in report.pickups:
                        items = ", ".join(f"{qty} x {name}" for qty, name in lines)
                        out.append(f"{place.upper():<10} {when}  {customer}: {items}")
                ```

                The Sunday sheet will say MARKET VAN across the top of the pickups in heavy capitals,
                which should be hard to miss even with flour on his glasses.

                The production report email for Sunday goes out at 12:05 on Saturday with everything
                else, because the cron job sends "tomorrow's" list every day.
                """
            )
        ),
        u(
            w(
                r"""
                Ran makemigrations on the laptop and it stopped with:

                ```
                It is impossible to add a non-nullable field 'place' to order without specifying a default.
                ...
                Please select a fix:
                 1) Provide a one-off default now (will be set on all existing rows with a null value for this column)
                 2) Quit and manually define a default value in models.py.
                ```

                I didn't want to guess so I pressed Ctrl+C.
                """
            )
        ),
        a(
            w(
                r"""
                Good instinct to stop. It's asking what place all your existing orders should have, and
                the answer is "the shop". The `default=1` I wrote assumes the shop will be place number 1,
                but the places table doesn't exist yet, so Django is being careful.

                Do it in two steps, **in the project folder with `(.venv)` on**:

                1. In `models.py`, temporarily change the `place` line on `Order` to allow empty:
                   ```python
                       place = models.ForeignKey("PickupPlace", on_delete=models.PROTECT, null=True, blank=True)
                   ```
                2. Run:
                   ```
                   python manage.py makemigrations orders
                   python manage.py migrate
                   ```
                3. In the admin, add a Pickup place: "Shop", "14 Wren Street, Frome", max per slot 6.
                   It will be number 1 because it's the first. Then a second: "Market van", "Cheap
                   Street, Frome (Frome Independent)", max per slot 4.
                4. Fill in the shop for every existing order, from the shell (`python manage.py shell`):
                   ```python
                   from orders.models import Order
                   Order.objects.filter(place__isnull=True).update(place_id=1)
                   ```
                5. Put the line back to the version with `default=1` (no `null=True`), and run
                   `makemigrations` and `migrate` once more. This time it won't ask.

                On the server, after `git pull`, it's the same order: `migrate` (which applies both
                steps at once, so add the two places in the admin *before* pulling the second change,
                or simply run the shell line right after the first migration). If that sounds fiddly,
                do the server part with Tomasz on the phone; it's a five-minute job with a second pair
                of eyes.
                """
            )
        ),
        u(
            w(
                r"""
                Did the laptop, then the server with Tomasz on WhatsApp video from a train. All the old
                orders say "Shop". Added 2026-06-07 as a market day, 10:00 to 14:00, Market van. The order
                page shows "Sunday 7 June – at the market van, Cheap Street" and only the loaves and
                focaccia. I ordered a seeded rye for the van and the email says Cheap Street.

                Marek is building shelves in the van out of an old bookcase. It's going about as well as
                you'd expect.
                """
            )
        ),
        a(
            w(
                r"""
                That's the whole chain working: market day, place, the smaller cap, the range, and the
                email. For the first market, a list to print and tick:

                1. **Saturday 12:00**: ordering for the market closes. At 12:05 Josh and you get the
                   Sunday list with MARKET VAN at the top.
                2. **Saturday afternoon**: print two copies of the sheet, one for Josh and one for the
                   van.
                3. **Sunday 04:00**: Josh bakes the market loaves.
                4. **Before 09:00**: bag each order with the name and time on, and pack the bags in the
                   van in time order, earliest nearest the hatch.
                5. **At the van**: Marek or Bea ticks names off the printed sheet as people collect. If
                   someone doesn't come, keep their bag until 14:00 and then bring it back; their
                   money's already in.
                6. **Monday**: in the admin, mark collected orders as Collected (or don't; the weekly
                   summary counts paid and collected alike).
                7. **Put the next market day in** (first Sunday of July, 2026-07-05) in the admin when
                   you're ready to take orders for it.

                I hope the bookcase shelves hold. Loaves are heavier than books.
                """
            )
        ),
        u(
            "One worry: the phone signal on Cheap Street is dreadful. If someone says 'I've ordered' and "
            "we can't check, what then?"
        ),
        a(
            w(
                r"""
                That's why the printed sheet matters: it's the whole list, and it doesn't need signal.
                If someone isn't on it, it's almost always one of three things:

                1. They ordered for the wrong day (the shop on Saturday, or next month's market). Ask
                   them to show you the confirmation email on their phone; it says the day and the
                   place.
                2. Their payment didn't go through, in which case there's no confirmation email at all.
                3. They ordered after the sheet was printed, which can't happen because ordering closes
                   at 12:00 on Saturday.

                If they have an email for today at the van and they're somehow not on the sheet, give
                them the bread from the loose stock and sort it out on Monday. It'll happen once a year
                at most, and it'll be cheaper than the argument.
                """
            )
        ),
    ],
)

CHAT = Chat(
    name="ws-12-bakery-orders",
    sessions=[S1, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, S12, S13],
    questions=[
        Question(
            "Write me something for the door about when we're open over the May bank holiday weekend.",
            "24-hour clock",
            ["si-24h"],
            "standing-instruction",
        ),
        Question(
            "Can you write a couple of sentences for the website about the seeded rye?",
            "never use the word artisan",
            ["si-artisan"],
            "standing-instruction",
        ),
        Question(
            "How do I get the weekly summary change onto the server?",
            "tell me first which folder I need to be in",
            ["si-folder"],
            "standing-instruction",
        ),
        Question(
            "Tomasz wants to put Cloudflare in front of the site. What would that involve?",
            "explain it in a sentence in plain English",
            ["si-plain"],
            "standing-instruction",
        ),
        Question(
            "I'd like customers to get a text the evening before they collect. What should I use for that?",
            "hate monthly subscriptions",
            ["pref-subs"],
            "preference",
        ),
        Question(
            "Could Hannah have a list of the day's collections to tick off at the counter?",
            "A4, big print",
            ["pref-print"],
            "preference",
        ),
        Question(
            "Can you make me something to keep track of the flour stock and when to reorder?",
            "LibreOffice",
            ["pref-libre"],
            "preference",
        ),
        Question(
            "Where's the website hosted these days?",
            "Hetzner",
            ["ku-host-new"],
            "knowledge-update",
            ["ku-host-old"],
        ),
        Question(
            "How much is a white sourdough on the site?",
            "£4.60",
            ["ku-price-new"],
            "knowledge-update",
            ["s1-intro"],
        ),
        Question(
            "Who do we get the white flour from?",
            "Wessex Mill",
            ["ku-supplier-new"],
            "knowledge-update",
            ["ku-supplier-old"],
        ),
        Question(
            "By what time do people have to order for the next day?",
            "12:00 the day before",
            ["ku-cutoff-new"],
            "knowledge-update",
            ["code-slots"],
        ),
        Question(
            "What time does the shop open on a Saturday?",
            "07:30",
            ["ku-sat-new"],
            "knowledge-update",
            ["ku-sat-old"],
        ),
        Question(
            "How long is each collection slot?",
            "15 minutes",
            ["ku-slot-new"],
            "knowledge-update",
            ["ku-slot-old"],
        ),
        Question(
            "Who's looking after refunds right now?",
            "Hannah Whitlock",
            ["ku-refund-new"],
            "knowledge-update",
            ["ku-refund-old"],
        ),
        Question(
            "What bugs have we had to fix on the site so far?",
            "unpaid orders; double payment; clocks going forward",
            ["mt-bug-1", "mt-bug-2", "code-tz"],
            "multi-turn",
        ),
        Question(
            "Which products have we put on the site since we launched?",
            "cardamom buns; focaccia; hot cross buns",
            ["mt-prod-1", "ku-cutoff-new", "mt-prod-3"],
            "multi-turn",
        ),
        Question(
            "Which of the staff have their own login to the back office?",
            "priya; josh; hannah",
            ["mt-staff-1", "ku-refund-new"],
            "multi-turn",
        ),
        Question(
            "How many baguettes does Bramble Café take each week, and what do they pay for each?",
            "20 baguettes; £1.40",
            ["mt-cafe-1", "mt-cafe-2"],
            "multi-turn",
        ),
        Question("What's our accountant's name?", "Gillian Moss", ["sf-accountant"], "single-fact"),
        Question("How many loaves go in the deck oven in one bake?", "24 loaves", ["sf-oven"], "single-fact"),
        Question("What does Stripe take on each card payment?", "1.5% + 20p", ["sf-stripe-fee"], "single-fact"),
        Question("Which company did I buy the domain from?", "123-reg", ["ku-host-old"], "single-fact"),
        Question(
            "What's the name of the command that emails Josh his bake list?",
            "send_production_report",
            ["code-report"],
            "code",
        ),
        Question(
            "Which function was putting orders in the wrong slot after the clocks changed?",
            "taken_per_slot",
            ["code-tz"],
            "code",
        ),
        Question("Which port does gunicorn listen on, on the server?", "8001", ["code-gunicorn"], "code"),
        Question(
            "What's the environment variable for the Stripe signing secret called?",
            "STRIPE_WEBHOOK_SECRET",
            ["code-webhook"],
            "code",
        ),
        Question(
            "Add a separate block for the café and Marek's mum at the bottom of my Monday email.",
            "send_weekly_summary",
            ["rc-weekly"],
            "request-context",
        ),
        Question(
            "Can the quarterly file for Gillian have a column with Stripe's fee on each order?",
            "export_orders_csv",
            ["rc-csv"],
            "request-context",
        ),
        Question(
            "Do a notice like the oven one for our summer fortnight off, 2026-08-10 to 2026-08-22.",
            "Thank you for bearing with us",
            ["rc-notice"],
            "request-context",
        ),
        Question(
            "Put a cap on the cardamom buns like we did at Easter, 120 a day.",
            "daily_limit",
            ["code-limit"],
            "request-context",
        ),
    ],
)
