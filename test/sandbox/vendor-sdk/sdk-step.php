<?php
/**
 * One step of a merchant integration built on the gateway vendor's v2 PHP SDK, run by
 * test/sandbox/vendor-sdk.test.ts against a local sandbox. The SDK is loaded from its directory
 * (argv[1]), unmodified, with a PSR-4 autoloader over its source/ (it ships none outside Composer).
 * Input (stdin, JSON): { step, config, payment (with the status kept from the step before), transactionStatus?, callback? }.
 * Output (stdout, JSON): what the integration ends with: the transaction's and payment's status,
 * the payment's gateway id, the errors with their class and code, the answer's fields.
 */
error_reporting(E_ALL);

$sdk = rtrim($argv[1], '/') . '/source/';
spl_autoload_register(function ($class) use ($sdk) {
    $file = $sdk . str_replace('\\', '/', $class) . '.php';
    if (is_file($file)) require $file;
});

use PaynetEasy\PaynetEasyApi\PaymentProcessor;
use PaynetEasy\PaynetEasyApi\PaymentData\PaymentTransaction;
use PaynetEasy\PaynetEasyApi\PaymentData\Payment;
use PaynetEasy\PaynetEasyApi\PaymentData\QueryConfig;
use PaynetEasy\PaynetEasyApi\PaymentData\Customer;
use PaynetEasy\PaynetEasyApi\PaymentData\BillingAddress;
use PaynetEasy\PaynetEasyApi\PaymentData\CreditCard;
use PaynetEasy\PaynetEasyApi\PaymentData\RecurrentCard;
use PaynetEasy\PaynetEasyApi\Transport\CallbackResponse;

$in = json_decode(stream_get_contents(STDIN), true);
$c = $in['config'];
$p = $in['payment'];

$payment = new Payment(array(
    'client_id'   => $p['clientId'],
    'description' => 'SDK test order',
    'amount'      => $p['amount'],
    'currency'    => 'USD',
));
if (!empty($p['paynetId'])) $payment->setPaynetId($p['paynetId']);
if (!empty($p['comment'])) $payment->setComment($p['comment']);
// What the merchant kept of the payment from the step before (the SDK checks it: a return needs a paid payment).
if (!empty($p['status'])) $payment->setStatus($p['status']);
$payment->setCustomer(new Customer(array(
    'email'      => 'john.smith@example.com',
    'ip_address' => '203.0.113.7',
    'first_name' => 'John',
    'last_name'  => 'Smith',
)));
$payment->setBillingAddress(new BillingAddress(array(
    'country'    => 'US',
    'city'       => 'Seattle',
    'first_line' => '100 Main Street',
    'zip_code'   => '98102',
    'phone'      => '12063582043',
)));
if (!empty($p['card'])) {
    $payment->setCreditCard(new CreditCard(array(
        'card_printed_name'  => 'JOHN SMITH',
        'credit_card_number' => $p['card']['number'],
        'expire_month'       => '12',
        'expire_year'        => $p['card']['year'],
        'cvv2'               => $p['card']['cvv2'],
    )));
}

// Stored cards (card references) for make-rebill and transfer-by-ref.
if (!empty($p['cardFrom'])) $payment->setRecurrentCardFrom(new RecurrentCard($p['cardFrom']));
if (!empty($p['cardTo'])) $payment->setRecurrentCardTo(new RecurrentCard($p['cardTo']));

$config = new QueryConfig(array(
    'end_point'    => $c['endPoint'],
    'login'        => $c['login'],
    'signing_key'  => $c['controlKey'],
    'redirect_url' => $c['redirectUrl'],
    'gateway_mode' => QueryConfig::GATEWAY_MODE_SANDBOX,
    'gateway_url_sandbox' => $c['gatewayUrl'],
));
if (!empty($c['callbackUrl'])) $config->setCallbackUrl($c['callbackUrl']);

$transaction = new PaymentTransaction(array('payment' => $payment, 'query_config' => $config));
if (!empty($in['transactionStatus'])) $transaction->setStatus($in['transactionStatus']);

$processor = new PaymentProcessor();
$thrown = null;
$response = null;
try {
    switch ($in['step']) {
        case 'callback':
            $response = $processor->processPaynetEasyCallback(new CallbackResponse($in['callback']), $transaction);
            break;
        case 'customer-return':
            $response = $processor->processCustomerReturn(new CallbackResponse($in['callback']), $transaction);
            break;
        default:
            $response = $processor->executeQuery($in['step'], $transaction);
    }
} catch (\Throwable $e) {
    $thrown = $e;
}

$describe = function ($e) {
    return array(
        'class'    => get_class($e),
        'message'  => $e->getMessage(),
        'code'     => $e->getCode(),
        'codeType' => gettype($e->getCode()),
    );
};
echo json_encode(array(
    'transactionStatus' => $transaction->getStatus(),
    'paymentStatus'     => $payment->getStatus(),
    'paynetId'          => $payment->getPaynetId(),
    'errors'            => array_values(array_map($describe, $transaction->getErrors())),
    'thrown'            => $thrown ? $describe($thrown) : null,
    'response'          => $response ? $response->getArrayCopy() : null,
    'neededAction'      => ($response && method_exists($response, 'getNeededAction')) ? $response->getNeededAction() : null,
    'redirectUrl'       => ($response && method_exists($response, 'getRedirectUrl')) ? $response->getRedirectUrl() : null,
    'cardRefId'         => $payment->getRecurrentCardFrom() ? $payment->getRecurrentCardFrom()->getPaynetId() : null,
)), "\n";
