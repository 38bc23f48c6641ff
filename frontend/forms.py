from django import forms


class CredentialsForm(forms.Form):
    """Only carries the fields: the accounts service says what is wrong with them
    (a form error here would re-render the page without saying why)."""

    username = forms.CharField(required=False, strip=False)
    password = forms.CharField(required=False, strip=False, widget=forms.PasswordInput)
